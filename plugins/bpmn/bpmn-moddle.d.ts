/** bpmn-moddle 10 ships no type declarations; this is the part the plugin uses. */
declare module 'bpmn-moddle' {
  export class BpmnModdle {
    fromXML(
      xml: string,
    ): Promise<{ rootElement: unknown; warnings: Array<{ message: string }>; elementsById: Record<string, unknown> }>;
  }
}

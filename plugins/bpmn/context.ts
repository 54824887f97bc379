import { engineView } from './engine-view.js';
import { bpmnLibraries } from './libraries.js';

/** A definition as engines are built from it, and what decides where its advances may run. */
export interface EngineContext {
  /** The engine's serialized form of the definition (see engineContext). */
  source: unknown;
  /** No service tasks: advancing writes only what an advance itself writes (the kept-engine guarded path). */
  sideEffectFree: boolean;
  /** The ids of its service, send and business-rule tasks (jobs, or a publisher's work). */
  services: string[];
  /**
   * No service task, no script task, no scripted condition: the engine needs nothing of the
   * main thread (no transaction for publishers, no sandbox), so its advances may run in an
   * engine thread (see main-engine-pool.ts). The others run on the main thread as they always did.
   */
  threadable: boolean;
}

interface Element {
  $type: string;
  id: string;
  conditionExpression?: { language?: string };
}

/**
 * Parses the definition once into the engine's serialized form: engines built from it skip
 * parsing and serializing, and saved states leave it out (recover takes it from here).
 */
export async function engineContext(xml: string, processId: string): Promise<EngineContext> {
  const { BpmnModdle, Engine } = await bpmnLibraries();
  const parsed = engineView(await new BpmnModdle().fromXML(xml), processId);
  const elements = Object.values((parsed as unknown as { elementsById: Record<string, Element> }).elementsById ?? {});
  // Send and business-rule tasks run as service tasks do (a publisher or a job).
  const services = elements
    .filter((element) => /^bpmn:(ServiceTask|SendTask|BusinessRuleTask)$/.test(element.$type))
    .map((element) => element.id);
  const sideEffectFree = elements.length > 0 && services.length === 0;
  const threadable =
    sideEffectFree &&
    !elements.some((element) => element.$type === 'bpmn:ScriptTask' || Boolean(element.conditionExpression?.language));
  const engine = new Engine({ name: 'definition', moddleContext: parsed } as never);
  const [loaded] = (await engine.getDefinitions()) as unknown as Array<{
    environment: { options: { source: unknown } };
  }>;
  const source = loaded!.environment.options.source as { serialize(): unknown };
  // getState() would copy the whole definition into every saved state; recover finds it here instead.
  source.serialize = () => undefined;
  return { source, sideEffectFree, services, threadable };
}

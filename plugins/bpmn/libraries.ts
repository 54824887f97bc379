import type { Engine } from 'bpmn-engine';
import type { BpmnModdle } from 'bpmn-moddle';
import type { evaluate } from 'feelin';

/** The BPMN libraries: bpmn-engine alone is a hundred modules, none of which a boot needs. */
export interface BpmnLibraries {
  Engine: typeof Engine;
  BpmnModdle: typeof BpmnModdle;
  /** FEEL (feelin): Zeebe's `=` expressions and conditions whose language is FEEL. */
  feel: typeof evaluate;
}

let loading: Promise<BpmnLibraries> | undefined;
let loaded: BpmnLibraries | undefined;

/** Imports the libraries on first use (the first deploy or instance), once per process. */
export function bpmnLibraries(): Promise<BpmnLibraries> {
  loading ??= Promise.all([import('bpmn-engine'), import('bpmn-moddle'), import('feelin')]).then(
    ([engine, moddle, feelin]) =>
      (loaded = { Engine: engine.Engine, BpmnModdle: moddle.BpmnModdle, feel: feelin.evaluate }),
  );
  return loading;
}

/** The libraries, for synchronous code that runs only after bpmnLibraries() resolved. */
export function loadedBpmnLibraries(): BpmnLibraries {
  if (!loaded) throw new Error('the BPMN libraries are used before bpmnLibraries() loaded them');
  return loaded;
}

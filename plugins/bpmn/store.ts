/**
 * The plugin's SQL, one store per resource under store/ (tables bpmn_*, every query naming the
 * tenant first); this file only gathers them for the handlers and the service.
 */
export * from './store/definitions.js';
export * from './store/history.js';
export * from './store/incidents.js';
export * from './store/instances.js';
export * from './store/waits.js';

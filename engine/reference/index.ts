export { createReferenceEngine, type ReferenceEngineOptions } from './reference-engine.ts';

import { pdfCreateStep } from './pdf-create-step.js';
import type { StepType } from './step-type.js';

/**
 * The step types the service offers. Adding one is a file that defines it (see
 * pdf-create-step.ts) and a line here: the route, the OpenAPI document and the console read
 * this list.
 */
export const BUILT_IN_STEP_TYPES: readonly StepType[] = [pdfCreateStep];

/** The step types of one app, looked up by name. */
export interface StepRegistry {
  /** In the order they were given: the document and the error messages list them so. */
  readonly types: readonly StepType[];
  readonly names: readonly string[];
  find(type: string): StepType | undefined;
}

const TYPE_NAME = /^[a-z][a-z0-9_]*$/;

/** The registry of the built-in types and any given (tests add their own); a name is taken once. */
export function createStepRegistry(types: readonly StepType[]): StepRegistry {
  const byName = new Map<string, StepType>();
  for (const stepType of types) {
    if (!TYPE_NAME.test(stepType.type)) throw new Error(`step type ${JSON.stringify(stepType.type)} is not a snake_case name`);
    if (byName.has(stepType.type)) throw new Error(`two step types are named ${stepType.type}`);
    byName.set(stepType.type, stepType);
  }
  return { types: [...byName.values()], names: [...byName.keys()], find: (type) => byName.get(type) };
}

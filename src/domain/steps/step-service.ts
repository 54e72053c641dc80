import { invalidBody } from '../../errors/app-error.js';
import { checkStepInputs } from './step-inputs.js';
import type { StepRegistry } from './step-registry.js';
import type { StepOutcome, StepTools } from './step-type.js';

export interface StepRequest {
  type: string;
  inputs: Record<string, unknown>;
}

/** Runs a workflow step against a record. */
export interface StepService {
  /** The step types this service runs. */
  readonly registry: StepRegistry;
  /** `baseUrl`: the base of the links in the result's details (and in its step.completed webhook). */
  run(companyId: string, recordId: string, step: StepRequest, baseUrl: string): Promise<StepOutcome<unknown>>;
}

/** What the step service is built from. */
export interface StepServiceDeps {
  registry: StepRegistry;
  tools: StepTools;
}

export function createStepService({ registry, tools }: StepServiceDeps): StepService {
  return {
    registry,
    async run(companyId, recordId, step, baseUrl) {
      const stepType = registry.find(step.type);
      if (!stepType) {
        throw invalidBody(`unsupported step type '${step.type}'; supported types: ${registry.names.join(', ')}`, {
          supported_types: [...registry.names],
        });
      }
      // Inputs are checked before the record is looked up: a malformed request is a 400 for any record.
      const inputs = checkStepInputs(stepType, step.inputs);
      return stepType.run(tools, { companyId, recordId, inputs, baseUrl });
    },
  };
}

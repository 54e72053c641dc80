import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { StoredFileDetails } from '../../../domain/files/file-details.js';
import type { StepType } from '../../../domain/steps/step-type.js';

export const RecordParams = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200 }) });

/** The details of pdf_create, also each entry of a record's file list. */
export const PdfCreateDetails = StoredFileDetails;

export const StoredFileList = Type.Object({ count: Type.Integer(), results: Type.Array(StoredFileDetails) }, { title: 'StoredFileList' });

/**
 * The schemas of PUT /v1/records/{record}/steps, read from the step registry: `StepType` (the
 * enum of type names), and each type's titled inputs and details schemas; with more than one
 * type, `StepInputs` and `StepDetails` are the `oneOf` of them (a `oneOf` of one is, as Redocly
 * says, illogical: one type's schemas stand for themselves).
 */
export function stepSchemas(types: readonly StepType[]) {
  const StepTypeName = Type.Unsafe<string>({
    type: 'string',
    enum: types.map((stepType) => stepType.type),
    title: 'StepType',
    description: 'a step type the service runs',
  });
  const StepInputs = oneOf<Record<string, unknown>>(
    types.map((stepType) => stepType.inputs),
    'StepInputs',
    "a step's inputs, as the schema of its type says (in the order of StepType)",
  );
  const StepDetails = oneOf(
    types.map((stepType) => stepType.details),
    'StepDetails',
    'what a step made, as the schema of its type says (in the order of StepType)',
  );
  const StepBody = Type.Object({ type: StepTypeName, inputs: StepInputs }, { additionalProperties: false });
  const StepResponse = Type.Object(
    {
      message: Type.String({ description: 'step execution result message' }),
      details: StepDetails,
    },
    { title: 'StepResult' },
  );
  return { StepTypeName, StepDetails, StepBody, StepResponse };
}

function oneOf<T>(schemas: TSchema[], title: string, description: string): TUnsafe<T> {
  return schemas.length === 1 ? (schemas[0] as TUnsafe<T>) : Type.Unsafe<T>({ oneOf: schemas, title, description });
}

/**
 * What the body validator checks of a step (its shape); the type and its inputs are the step
 * service's to check: an unknown type answers with the supported ones, and inputs are taken as
 * sent (the body validator coerces scalars, and a non-string pdf_filename must be refused
 * rather than turned into a string).
 */
export const StepEnvelope = Type.Object({ type: Type.String(), inputs: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: false });

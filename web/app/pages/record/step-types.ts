/**
 * The step types the console offers, read from the service's OpenAPI document, which the step
 * registry writes (src/domain/steps/step-registry.ts): `StepType` lists the types, and the
 * step body's `inputs` each one's inputs schema, in the same order (`StepInputs`, a `oneOf`, once
 * there is more than one type). A type added to the registry shows here without a change to the
 * console.
 */

export type StepInputKind = 'text' | 'integer' | 'number' | 'boolean';

export interface StepInput {
  name: string;
  kind: StepInputKind;
  required: boolean;
  description?: string;
}

export interface StepTypeForm {
  type: string;
  inputs: StepInput[];
}

/** Types the console has a panel of its own for (pdf_create: its template picker). */
export const DEDICATED_STEP_PANELS: ReadonlySet<string> = new Set(['pdf_create']);

type Schema = {
  $ref?: string;
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  oneOf?: Schema[];
  description?: string;
};

type StepPath = { put?: { requestBody?: { content?: Record<string, { schema?: Schema }> } } };

const KINDS: Record<string, StepInputKind> = { string: 'text', integer: 'integer', number: 'number', boolean: 'boolean' };

/** The step types of a document, each with the inputs a form can ask for; none when the document does not say. */
export function stepTypesOf(document: unknown): StepTypeForm[] {
  const { components, paths } = (document ?? {}) as { components?: { schemas?: Record<string, Schema> }; paths?: Record<string, StepPath> };
  const schemas = components?.schemas ?? {};
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref?.startsWith('#/components/schemas/') ? schemas[schema.$ref.slice('#/components/schemas/'.length)] : schema;
  const names = (schemas.StepType?.enum ?? []).filter((name): name is string => typeof name === 'string');
  const body = resolve(paths?.['/v1/records/{record}/steps']?.put?.requestBody?.content?.['application/json']?.schema);
  const allInputs = resolve(body?.properties?.inputs);
  const inputSchemas = allInputs?.oneOf ?? (allInputs ? [allInputs] : []);
  return names.map((type, index) => {
    const inputs = resolve(inputSchemas[index]);
    const required = new Set(inputs?.required ?? []);
    return {
      type,
      inputs: Object.entries(inputs?.properties ?? {}).flatMap(([name, property]) => {
        const kind = typeof property.type === 'string' ? KINDS[property.type] : undefined;
        return kind ? [{ name, kind, required: required.has(name), ...(property.description ? { description: property.description } : {}) }] : [];
      }),
    };
  });
}

// Read once per page load: the registry does not change while the service runs, and the document is large.
let loaded: Promise<StepTypeForm[]> | undefined;

/** The service's step types; none when its document cannot be read (the dedicated panels still work). */
export function loadStepTypes(): Promise<StepTypeForm[]> {
  loaded ??= fetch('/v1/openapi.json')
    .then(async (response) => (response.ok ? stepTypesOf(await response.json()) : []))
    .catch(() => []);
  return loaded;
}

/**
 * The inputs of a step from what the form holds (text as typed, a checkbox as a boolean): an
 * empty optional input is left out, and a number that does not read as one is sent as typed,
 * for the service to name.
 */
export function stepInputs(form: StepTypeForm, values: Readonly<Record<string, string | boolean>>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const input of form.inputs) {
    const value = values[input.name];
    if (input.kind === 'boolean') {
      inputs[input.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '' && !input.required) continue;
    const number = Number(text);
    inputs[input.name] = input.kind !== 'text' && text !== '' && Number.isFinite(number) ? number : text;
  }
  return inputs;
}

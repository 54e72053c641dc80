import { Type } from '@sinclair/typebox';
import { FormCompanySchema } from '../../../domain/company-profile/company-profile.js';

const formDescription =
  'what a record token of the type sees and may change (absent: every field and the status). ' +
  'A token sees only the fields listed, may change only those with editable true, and may set the status only when status_editable is true; ' +
  'minting may narrow this further.';

/** A type's form: the fields (and status) a record token sees and may change. */
export const FormSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the heading of the hosted form' })),
    instructions: Type.Optional(Type.String({ maxLength: 4000, description: "shown above the form's fields" })),
    fields: Type.Array(
      Type.Object(
        {
          uid: Type.String({ minLength: 1, maxLength: 200, description: 'a field UID of the type' }),
          editable: Type.Optional(Type.Boolean({ default: true, description: 'false: shown, not changeable' })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500, description: "the fields a record token sees, in the form's order" },
    ),
    status_editable: Type.Optional(Type.Boolean({ default: false, description: 'whether a record token may set the status' })),
  },
  { additionalProperties: false, title: 'RecordTypeForm', description: formDescription },
);

/** A custom record type as the API shows it, to operators and to company users alike. */
export const RecordType = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    fields: Type.Array(
      Type.Object({
        uid: Type.String({ description: 'the key of the field in create and update bodies' }),
        field_name: Type.String({ description: "the key of the field in a record's fields" }),
        type: Type.String(),
        required: Type.Boolean(),
      }),
    ),
    statuses: Type.Array(Type.String(), { description: 'the first is the initial status' }),
    views: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), statuses: Type.Array(Type.String()) })),
    form: Type.Optional(FormSchema),
    company: Type.Optional({
      ...FormCompanySchema,
      description:
        "only in a record token's read of its record's type: the company's profile as the hosted form shows it " +
        '(set by the operator, PATCH /admin/v1/companies/{company}/profile), and nothing else of the company',
    }),
    version: Type.Integer({ description: 'bumped on every replacement' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'RecordType' },
);

export const RecordTypeList = Type.Object({ count: Type.Integer(), results: Type.Array(RecordType) }, { title: 'RecordTypeList' });

export const RECORD_TYPE_EXAMPLE = {
  id: 'loan',
  name: 'Loan',
  fields: [
    { uid: 'f_borrower', field_name: 'borrower', type: 'string', required: true },
    { uid: 'f_amount', field_name: 'amount', type: 'number', required: false },
  ],
  statuses: ['new', 'approved', 'closed'],
  views: [{ id: 'open', name: 'Open loans', statuses: ['new', 'approved'] }],
  version: 2,
  created_at: '2026-11-21T09:30:00.000Z',
  updated_at: '2026-11-22T14:05:12.345Z',
};

export const TypeIdParams = Type.Object({ typeId: Type.String({ minLength: 1, maxLength: 200, description: "the record type's ID" }) });

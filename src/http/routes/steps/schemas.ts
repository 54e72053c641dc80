import { Type } from '@sinclair/typebox';

export const RecordParams = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200 }) });

// Inputs are typed in their descriptions only: the body validator coerces scalars, and a
// non-string pdf_filename must be refused rather than turned into a string.
export const StepBody = Type.Object(
  {
    type: Type.String({ description: 'the step type; supported: pdf_create' }),
    inputs: Type.Object(
      {
        pdf_filename: Type.Optional(
          Type.Unknown({
            description:
              'pdf_create, required string: file name of the PDF; a plain name (no path separators or ' +
              'control characters, at most 255 bytes); .pdf is appended when absent',
          }),
        ),
        template_id: Type.Optional(Type.Unknown({ description: 'pdf_create, required string: ID of the template to render' })),
      },
      { additionalProperties: true, description: "the step's inputs" },
    ),
  },
  { additionalProperties: false },
);

export const PdfCreateDetails = Type.Object(
  {
    file_id: Type.String(),
    pdf_filename: Type.String(),
    content_type: Type.Literal('application/pdf'),
    size_bytes: Type.Integer(),
    pages: Type.Integer(),
    sha256: Type.String({ description: 'hex SHA-256 of the PDF bytes' }),
    download_url: Type.String({ format: 'uri', description: 'GET it with the same bearer, or a record token for this record' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'StoredFile' },
);

export const StoredFileList = Type.Object({ count: Type.Integer(), results: Type.Array(PdfCreateDetails) }, { title: 'StoredFileList' });

export const StepResponse = Type.Object(
  {
    message: Type.String({ description: 'step execution result message' }),
    details: PdfCreateDetails,
  },
  { title: 'StepResult' },
);

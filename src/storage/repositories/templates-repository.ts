import type { Kysely } from 'kysely';
import type { TemplateRow, TemplatesRepository } from '../../domain/templates/templates-repository.port.js';
import type { DB } from '../schema.js';

export function createTemplatesRepository(db: Kysely<DB>): TemplatesRepository {
  return {
    find(companyId, templateId) {
      return db.selectFrom('pdf_templates').selectAll().where('company_id', '=', companyId).where('id', '=', templateId).executeTakeFirst();
    },

    list(companyId) {
      return db
        .selectFrom('pdf_templates')
        .select(['company_id', 'id', 'size_bytes', 'pages', 'created_at', 'updated_at'])
        .where('company_id', '=', companyId)
        .orderBy('id')
        .execute();
    },

    async save(companyId, template) {
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('pdf_templates')
          .select('created_at')
          .where('company_id', '=', companyId)
          .where('id', '=', template.id)
          .executeTakeFirst();
        const row: TemplateRow = {
          company_id: companyId,
          id: template.id,
          template_json: template.templateJson,
          size_bytes: template.sizeBytes,
          pages: template.pages,
          created_at: existing?.created_at ?? template.at,
          updated_at: template.at,
        };
        await trx
          .insertInto('pdf_templates')
          .values(row)
          .onConflict((conflict) =>
            conflict.columns(['company_id', 'id']).doUpdateSet({
              template_json: row.template_json,
              size_bytes: row.size_bytes,
              pages: row.pages,
              updated_at: row.updated_at,
            }),
          )
          .execute();
        return { created: existing === undefined, row };
      });
    },

    async delete(companyId, templateId) {
      const result = await db.deleteFrom('pdf_templates').where('company_id', '=', companyId).where('id', '=', templateId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

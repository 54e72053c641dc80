import { AppError } from '../../errors/app-error.js';
import type { RecordsService } from '../records/records-service.js';
import type { StepRecordFinder } from './record-inputs.js';

/** Reads step records through the records service (tenancy and the record's form stay its business). */
export function stepRecordFinder(records: Pick<RecordsService, 'get'>): StepRecordFinder {
  return async (companyId, recordId) => {
    try {
      const record = await records.get(companyId, recordId);
      return { id: record.id, status: record.status, created_at: record.created_at, fields: record.fields ?? {} };
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  };
}

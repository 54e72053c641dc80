import type { TransactionScope } from '../unit-of-work.js';
import type { RecordTypeVersion, StoredRecordType, TypeDefinitionBody } from './stored-record-type.js';

/** Custom record types of a company. A deleted type keeps its row, so versions are never reused. */
export interface RecordTypesRepository {
  find(companyId: string, typeId: string): Promise<StoredRecordType | undefined>;
  /** The live types' versions: all of the company's, or only those named; in the scope's transaction when given one. */
  versions(companyId: string, typeIds?: readonly string[], scope?: TransactionScope): Promise<RecordTypeVersion[]>;
  /** The live types named, with their definitions; in the scope's transaction when given one. */
  findMany(companyId: string, typeIds: readonly string[], scope?: TransactionScope): Promise<StoredRecordType[]>;
  list(companyId: string): Promise<StoredRecordType[]>;
  /** Creates or replaces a type, bumping its version; answers the stored row. */
  put(
    companyId: string,
    typeId: string,
    type: { name: string; definition: TypeDefinitionBody; at: string },
    scope: TransactionScope,
  ): Promise<StoredRecordType>;
  /** True when a live type was deleted. */
  remove(companyId: string, typeId: string, at: string, scope: TransactionScope): Promise<boolean>;
}

import type { RecordTypeDefinition } from './definition.js';

/** What a version of a type defines besides its name. */
export type TypeDefinitionBody = Omit<RecordTypeDefinition, 'name'>;

/** A version of a custom record type as stored. */
export interface StoredRecordType {
  readonly id: string;
  readonly name: string;
  readonly definition: TypeDefinitionBody;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface RecordTypeVersion {
  readonly id: string;
  readonly version: number;
}

import { notFound } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { DataVersions } from '../data-versions.port.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import { CompiledTypeCache } from './compiled-type-cache.js';
import { compileRecordType, type CompiledRecordType } from './compiled-type.js';
import { parseRecordTypeDefinition, type RecordType, type RecordTypeDefinition } from './definition.js';
import type { RecordTypesRepository } from './record-types-repository.port.js';
import type { StoredRecordType, TypeDefinitionBody } from './stored-record-type.js';

export interface RecordTypesService {
  /** Defines or replaces a type; `created` is false for a replacement. Throws a 400 listing every problem. */
  put(companyId: string, typeId: string, body: unknown): Promise<{ type: RecordType; created: boolean }>;
  get(companyId: string, typeId: string): Promise<RecordType>;
  list(companyId: string): Promise<RecordType[]>;
  remove(companyId: string, typeId: string): Promise<void>;
  /** The compiled current version of a type, or undefined when the company has no such type. */
  compiled(companyId: string, typeId: string): Promise<CompiledRecordType | undefined>;
  /**
   * The compiled type at a version the caller just read from the database (with the record that
   * follows it): from the cache without another read when that version was compiled before.
   */
  compiledAt(companyId: string, typeId: string, version: number): Promise<CompiledRecordType | undefined>;
  /**
   * The compiled current versions of the types named (or of all the company's types), by type
   * id; read in the scope's transaction when given one.
   */
  compiledMany(companyId: string, typeIds?: readonly string[], scope?: TransactionScope): Promise<Map<string, CompiledRecordType>>;
  /** A stored version of a type, compiled (from the cache when that version was compiled before). */
  compile(companyId: string, stored: StoredRecordType): CompiledRecordType;
}

export interface RecordTypesServiceDeps {
  repository: RecordTypesRepository;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  clock: Clock;
  cache?: CompiledTypeCache;
}

export function createRecordTypesService({
  repository,
  unitOfWork,
  dataVersions,
  clock,
  cache = new CompiledTypeCache(),
}: RecordTypesServiceDeps): RecordTypesService {
  function compile(companyId: string, stored: StoredRecordType): CompiledRecordType {
    const cached = cache.get(companyId, stored.id, stored.version);
    if (cached) return cached;
    const compiled = compileRecordType(toRecordType(stored));
    cache.set(companyId, compiled);
    return compiled;
  }

  async function compiledMany(companyId: string, typeIds?: readonly string[], scope?: TransactionScope): Promise<Map<string, CompiledRecordType>> {
    const versions = await repository.versions(companyId, typeIds, scope);
    const result = new Map<string, CompiledRecordType>();
    const misses: string[] = [];
    for (const { id, version } of versions) {
      const cached = cache.get(companyId, id, version);
      if (cached) result.set(id, cached);
      else misses.push(id);
    }
    for (const stored of await repository.findMany(companyId, misses, scope)) result.set(stored.id, compile(companyId, stored));
    return result;
  }

  return {
    async put(companyId, typeId, body) {
      const definition = parseRecordTypeDefinition(typeId, body);
      const existing = await repository.versions(companyId, [typeId]);
      // A type's field names and views shape the records it types, so lists of records change too.
      const stored = await unitOfWork.run(async (scope) => {
        const put = await repository.put(
          companyId,
          typeId,
          { name: definition.name, definition: storedDefinition(definition), at: clock.now().toISOString() },
          scope,
        );
        await dataVersions.bump(scope, companyId);
        return put;
      });
      return { type: compile(companyId, stored).type, created: existing.length === 0 };
    },

    async get(companyId, typeId) {
      const stored = await repository.find(companyId, typeId);
      if (!stored) throw notFound(`record type '${typeId}' not found`);
      return compile(companyId, stored).type;
    },

    async list(companyId) {
      return (await repository.list(companyId)).map((stored) => compile(companyId, stored).type);
    },

    async remove(companyId, typeId) {
      const removed = await unitOfWork.run(async (scope) => {
        const done = await repository.remove(companyId, typeId, clock.now().toISOString(), scope);
        if (done) await dataVersions.bump(scope, companyId);
        return done;
      });
      if (!removed) throw notFound(`record type '${typeId}' not found`);
    },

    async compiled(companyId, typeId) {
      return (await compiledMany(companyId, [typeId])).get(typeId);
    },

    async compiledAt(companyId, typeId, version) {
      const cached = cache.get(companyId, typeId, version);
      if (cached) return cached;
      const stored = await repository.find(companyId, typeId);
      return stored && compile(companyId, stored);
    },

    compiledMany,
    compile,
  };
}

function storedDefinition({ fields, statuses, views, form }: RecordTypeDefinition): TypeDefinitionBody {
  return { fields, statuses, views, ...(form ? { form } : {}) };
}

function toRecordType(stored: StoredRecordType): RecordType {
  const { fields, statuses, views, form } = stored.definition;
  return {
    id: stored.id,
    name: stored.name,
    fields,
    statuses,
    views,
    ...(form ? { form } : {}),
    version: stored.version,
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
  };
}

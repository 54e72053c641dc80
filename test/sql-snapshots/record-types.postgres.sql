-- unitOfWork.run + put: new
begin;
insert into "record_types" ("company_id", "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ("company_id", "id") do update set "name" = $9, "definition" = $10, "version" = record_types.version + 1, "created_at" = case when record_types.deleted_at is null then record_types.created_at else $11 end, "updated_at" = $12, "deleted_at" = $13 returning "id", "name", "definition", "version", "created_at", "updated_at";
commit;

-- unitOfWork.run + put: replace
begin;
insert into "record_types" ("company_id", "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ("company_id", "id") do update set "name" = $9, "definition" = $10, "version" = record_types.version + 1, "created_at" = case when record_types.deleted_at is null then record_types.created_at else $11 end, "updated_at" = $12, "deleted_at" = $13 returning "id", "name", "definition", "version", "created_at", "updated_at";
commit;

-- find
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = $1 and "deleted_at" is null and "id" = $2;

-- versions: all
select "id", "version" from "record_types" where "company_id" = $1 and "deleted_at" is null;

-- versions: named
select "id", "version" from "record_types" where "company_id" = $1 and "deleted_at" is null and "id" in ($2, $3);

-- findMany
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = $1 and "deleted_at" is null and "id" in ($2, $3);

-- list
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = $1 and "deleted_at" is null order by "id";

-- unitOfWork.run + remove
begin;
update "record_types" set "deleted_at" = $1, "updated_at" = $2 where "company_id" = $3 and "id" = $4 and "deleted_at" is null;
commit;

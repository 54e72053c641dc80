-- unitOfWork.run + insertMany
begin;
insert into "records" ("id", "record_type", "type_id", "uid", "status", "parent_record", "child_records", "instance", "fields", "linked", "views", "created_at", "updated_at", "company_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14), ($15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28);
insert into "record_stored_views" ("company_id", "view_id", "record_id") values ($1, $2, $3);
commit;

-- find
select * from "records" where "company_id" = $1 and "id" = $2;

-- findWithTypeVersion
select "records".*, "record_types"."version" as "type_version" from "records" left join "record_types" on "record_types"."company_id" = "records"."company_id" and "record_types"."id" = "records"."type_id" and "record_types"."deleted_at" is null where "records"."company_id" = $1 and "records"."id" = any($2);

-- findKey
select "created_at" as "at", "id" from "records" where "company_id" = $1 and "id" = $2;

-- findKey: updated_at
select "updated_at" as "at", "id" from "records" where "company_id" = $1 and "id" = $2;

-- page: no filter
select "records".* from "records" where "records"."company_id" = $1 order by "records"."created_at" asc, "records"."id" asc limit $2;

-- page: type, time and bounds, descending
select "records".* from "records" where "records"."company_id" = $1 and "records"."record_type" = $2 and "records"."updated_at" > $3 and "records"."updated_at" < $4 and ("records"."created_at", "records"."id") >= ($5, $6) and ("records"."created_at", "records"."id") < ($7, $8) order by "records"."created_at" desc, "records"."id" desc limit $9;

-- page: by updated_at, newest first, after a record
select "records".* from "records" where "records"."company_id" = $1 and ("records"."updated_at", "records"."id") < ($2, $3) order by "records"."updated_at" desc, "records"."id" desc limit $4;

-- page: a custom type
select "records".* from "records" where "records"."company_id" = $1 and "records"."record_type" = $2 and "records"."type_id" = $3 order by "records"."created_at" asc, "records"."id" asc limit $4;

-- page: view
select "records".* from "records" where "records"."company_id" = $1 and (("records"."type_id" = $2 and "records"."status" in ($3, $4)) or "records"."type_id" = $5 or (("records"."type_id" is null or not exists (select "record_types"."id" from "record_types" where "record_types"."company_id" = "records"."company_id" and "record_types"."id" = "records"."type_id" and "record_types"."deleted_at" is null)) and exists (select "record_stored_views"."record_id" from "record_stored_views" where "record_stored_views"."company_id" = "records"."company_id" and "record_stored_views"."record_id" = "records"."id" and "record_stored_views"."view_id" = $6))) order by "records"."created_at" asc, "records"."id" asc limit $7;

-- exists
select "records"."id" from "records" where "records"."company_id" = $1 and "records"."record_type" = $2 and ("records"."created_at", "records"."id") > ($3, $4) limit $5;

-- count: records of a type
select count(*) as "count" from "records" where "records"."company_id" = $1 and "records"."type_id" = $2;

-- page: records of a type, newest first
select "records".* from "records" where "records"."company_id" = $1 and "records"."type_id" = $2 order by "records"."created_at" desc, "records"."id" desc limit $3;

-- existingIds
select "id" from "records" where "company_id" = $1 and "id" in ($2, $3);

-- unitOfWork.run + update: untyped record
begin;
select * from "records" where "company_id" = $1 and "id" = $2 for update;
update "records" set "status" = $1, "fields" = $2, "updated_at" = $3 where "company_id" = $4 and "id" = $5;
commit;

-- unitOfWork.run + update: typed record
begin;
select * from "records" where "company_id" = $1 and "id" = $2 for update;
select "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at" from "record_types" where "company_id" = $1 and "id" = $2 for share;
update "records" set "status" = $1, "fields" = $2, "updated_at" = $3 where "company_id" = $4 and "id" = $5;
commit;

-- unitOfWork.run + mentioning
begin;
select * from "records" where "company_id" = $1 and ("id" = $2 or "records"."parent_record" like $3 escape '!' or "records"."child_records" like $4 escape '!' or "records"."linked" like $5 escape '!') order by "id" for update;
commit;

-- unitOfWork.run + updateReferences
begin;
update "records" set "parent_record" = $1, "child_records" = $2, "linked" = $3, "updated_at" = $4 where "company_id" = $5 and "id" = $6;
commit;

-- unitOfWork.run + remove
begin;
select * from "records" where "company_id" = $1 and "id" = $2 for update;
delete from "record_stored_views" where "company_id" = $1 and "record_id" = $2;
delete from "records" where "company_id" = $1 and "id" = $2;
commit;

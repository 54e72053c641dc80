-- unitOfWork.run + insertMany
begin immediate;
insert into "records" ("id", "record_type", "type_id", "uid", "status", "parent_record", "child_records", "instance", "fields", "linked", "views", "created_at", "updated_at", "company_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
insert into "record_stored_views" ("company_id", "view_id", "record_id") values (?, ?, ?);
commit;

-- find
select * from "records" where "company_id" = ? and "id" = ?;

-- findWithTypeVersion
select "records".*, "record_types"."version" as "type_version" from "records" left join "record_types" on "record_types"."company_id" = "records"."company_id" and "record_types"."id" = "records"."type_id" and "record_types"."deleted_at" is null where "records"."company_id" = ? and "records"."id" = ?;

-- findKey
select "created_at" as "at", "id" from "records" where "company_id" = ? and "id" = ?;

-- findKey: updated_at
select "updated_at" as "at", "id" from "records" where "company_id" = ? and "id" = ?;

-- page: no filter
select "records".* from "records" where "records"."company_id" = ? order by "records"."created_at" asc, "records"."id" asc limit 2;

-- page: type, time and bounds, descending
select "records".* from "records" where "records"."company_id" = ? and "records"."record_type" = ? and "records"."updated_at" > ? and "records"."updated_at" < ? and ("records"."created_at", "records"."id") >= (?, ?) and ("records"."created_at", "records"."id") < (?, ?) order by "records"."created_at" desc, "records"."id" desc limit 2;

-- page: by updated_at, newest first, after a record
select "records".* from "records" where "records"."company_id" = ? and ("records"."updated_at", "records"."id") < (?, ?) order by "records"."updated_at" desc, "records"."id" desc limit 2;

-- page: a custom type
select "records".* from "records" where "records"."company_id" = ? and "records"."record_type" = ? and "records"."type_id" = ? order by "records"."created_at" asc, "records"."id" asc limit 2;

-- page: view
select "records".* from "records" where "records"."company_id" = ? and (("records"."type_id" = ? and "records"."status" in (?, ?)) or "records"."type_id" = ? or (("records"."type_id" is null or not exists (select "record_types"."id" from "record_types" where "record_types"."company_id" = "records"."company_id" and "record_types"."id" = "records"."type_id" and "record_types"."deleted_at" is null)) and exists (select "record_stored_views"."record_id" from "record_stored_views" where "record_stored_views"."company_id" = "records"."company_id" and "record_stored_views"."record_id" = "records"."id" and "record_stored_views"."view_id" = ?))) order by "records"."created_at" asc, "records"."id" asc limit 2;

-- exists
select "records"."id" from "records" where "records"."company_id" = ? and "records"."record_type" = ? and ("records"."created_at", "records"."id") > (?, ?) limit 1;

-- count: records of a type
select count(*) as "count" from "records" where "records"."company_id" = ? and "records"."type_id" = ?;

-- page: records of a type, newest first
select "records".* from "records" where "records"."company_id" = ? and "records"."type_id" = ? order by "records"."created_at" desc, "records"."id" desc limit 10;

-- existingIds
select "id" from "records" where "company_id" = ? and "id" in (?, ?);

-- unitOfWork.run + update: untyped record
begin immediate;
select * from "records" where "company_id" = ? and "id" = ?;
update "records" set "status" = ?, "fields" = ?, "updated_at" = ? where "company_id" = ? and "id" = ?;
commit;

-- unitOfWork.run + update: typed record
begin immediate;
select * from "records" where "company_id" = ? and "id" = ?;
select "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at" from "record_types" where "company_id" = ? and "id" = ?;
update "records" set "status" = ?, "fields" = ?, "updated_at" = ? where "company_id" = ? and "id" = ?;
commit;

-- unitOfWork.run + mentioning
begin immediate;
select * from "records" where "company_id" = ? and ("id" = ? or "records"."parent_record" like ? escape '!' or "records"."child_records" like ? escape '!' or "records"."linked" like ? escape '!') order by "id";
commit;

-- unitOfWork.run + updateReferences
begin immediate;
update "records" set "parent_record" = ?, "child_records" = ?, "linked" = ?, "updated_at" = ? where "company_id" = ? and "id" = ?;
commit;

-- unitOfWork.run + remove
begin immediate;
select * from "records" where "company_id" = ? and "id" = ?;
delete from "record_stored_views" where "company_id" = ? and "record_id" = ?;
delete from "records" where "company_id" = ? and "id" = ?;
commit;

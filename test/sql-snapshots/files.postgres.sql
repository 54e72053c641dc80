-- insert
insert into "record_files" ("company_id", "id", "record_id", "filename", "content_type", "size_bytes", "pages", "sha256", "template_id", "created_at", "blob_key") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- findForRecord
select * from "record_files" where "company_id" = $1 and "record_id" = $2 and "id" = $3;

-- listForRecord
select * from "record_files" where "company_id" = $1 and "record_id" = $2 order by "created_at" desc, "id" desc;

-- unitOfWork.run + deleteForRecord
begin;
select * from "record_files" where "company_id" = $1 and "record_id" = $2 order by "id";
delete from "record_files" where "company_id" = $1 and "record_id" = $2;
commit;

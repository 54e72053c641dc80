-- insert
insert into "record_files" ("company_id", "id", "record_id", "filename", "content_type", "size_bytes", "pages", "sha256", "template_id", "created_at", "blob_key") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- findForRecord
select * from "record_files" where "company_id" = ? and "record_id" = ? and "id" = ?;

-- listForRecord
select * from "record_files" where "company_id" = ? and "record_id" = ? order by "created_at" desc, "id" desc;

-- unitOfWork.run + deleteForRecord
begin immediate;
select * from "record_files" where "company_id" = ? and "record_id" = ? order by "id";
delete from "record_files" where "company_id" = ? and "record_id" = ?;
commit;

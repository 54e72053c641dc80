-- save: new
begin immediate;
select "created_at" from "pdf_templates" where "company_id" = ? and "id" = ?;
insert into "pdf_templates" ("company_id", "id", "template_json", "size_bytes", "pages", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "template_json" = ?, "size_bytes" = ?, "pages" = ?, "updated_at" = ?;
commit;

-- save: replace
begin immediate;
select "created_at" from "pdf_templates" where "company_id" = ? and "id" = ?;
insert into "pdf_templates" ("company_id", "id", "template_json", "size_bytes", "pages", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "template_json" = ?, "size_bytes" = ?, "pages" = ?, "updated_at" = ?;
commit;

-- find
select * from "pdf_templates" where "company_id" = ? and "id" = ?;

-- list
select "company_id", "id", "size_bytes", "pages", "created_at", "updated_at" from "pdf_templates" where "company_id" = ? order by "id";

-- delete
delete from "pdf_templates" where "company_id" = ? and "id" = ?;

-- save: new
begin;
select "created_at" from "pdf_templates" where "company_id" = $1 and "id" = $2;
insert into "pdf_templates" ("company_id", "id", "template_json", "size_bytes", "pages", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("company_id", "id") do update set "template_json" = $8, "size_bytes" = $9, "pages" = $10, "updated_at" = $11;
commit;

-- save: replace
begin;
select "created_at" from "pdf_templates" where "company_id" = $1 and "id" = $2;
insert into "pdf_templates" ("company_id", "id", "template_json", "size_bytes", "pages", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("company_id", "id") do update set "template_json" = $8, "size_bytes" = $9, "pages" = $10, "updated_at" = $11;
commit;

-- find
select * from "pdf_templates" where "company_id" = $1 and "id" = $2;

-- list
select "company_id", "id", "size_bytes", "pages", "created_at", "updated_at" from "pdf_templates" where "company_id" = $1 order by "id";

-- delete
delete from "pdf_templates" where "company_id" = $1 and "id" = $2;

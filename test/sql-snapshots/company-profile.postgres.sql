-- setProfile
insert into "company_settings" ("company_id", "display_name", "support_email") values ($1, $2, $3) on conflict ("company_id") do update set "display_name" = $4, "support_email" = $5;

-- profile
select "display_name", "support_email" from "company_settings" where "company_id" = $1;

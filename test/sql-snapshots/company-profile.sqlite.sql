-- setProfile
insert into "company_settings" ("company_id", "display_name", "support_email") values (?, ?, ?) on conflict ("company_id") do update set "display_name" = ?, "support_email" = ?;

-- profile
select "display_name", "support_email" from "company_settings" where "company_id" = ?;

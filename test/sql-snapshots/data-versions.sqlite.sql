-- current: none yet
select "version" from "data_versions" where "company_id" = ?;

-- unitOfWork.run + bump: first
begin immediate;
insert into "data_versions" ("company_id", "version") values (?, 1) on conflict ("company_id") do update set "version" = data_versions.version + 1;
commit;

-- unitOfWork.run + bump: again
begin immediate;
insert into "data_versions" ("company_id", "version") values (?, 1) on conflict ("company_id") do update set "version" = data_versions.version + 1;
commit;

-- current
select "version" from "data_versions" where "company_id" = ?;

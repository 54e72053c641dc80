-- unitOfWork.run + insertMany
begin immediate;
insert into "webhook_deliveries" ("company_id", "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "last_response_body", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
commit;

-- claim
begin immediate;
select "company_id", "id", "webhook_id" from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" <= ? and "lease_until" <= ? order by "next_attempt_at" limit 1;
update "webhook_deliveries" set "lease_until" = ?, "lease_owner" = ? where "company_id" in (?) and "id" in (?);
select "d"."id", "d"."webhook_id", "d"."event_type", "d"."payload", "d"."status", "d"."attempts", "d"."last_status_code", "d"."last_error", "d"."next_attempt_at", "d"."lease_until", "d"."lease_owner", "d"."created_at", "d"."delivered_at", "d"."company_id", "w"."url", "w"."secret", "w"."enabled", "w"."previous_secret", "w"."previous_secret_expires_at" from "webhook_deliveries" as "d" left join "webhooks" as "w" on "w"."company_id" = "d"."company_id" and "w"."id" = "d"."webhook_id" where "d"."company_id" in (?) and "d"."id" in (?) order by "d"."next_attempt_at";
commit;

-- claim: webhooks and companies at their share are skipped
begin immediate;
select "company_id", "id", "webhook_id" from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" <= ? and "lease_until" <= ? and "company_id" not in (?, ?) and "webhook_id" not in (?) order by "next_attempt_at" limit 2;
update "webhook_deliveries" set "lease_until" = ?, "lease_owner" = ? where "company_id" in (?) and "id" in (?, ?);
select "d"."id", "d"."webhook_id", "d"."event_type", "d"."payload", "d"."status", "d"."attempts", "d"."last_status_code", "d"."last_error", "d"."next_attempt_at", "d"."lease_until", "d"."lease_owner", "d"."created_at", "d"."delivered_at", "d"."company_id", "w"."url", "w"."secret", "w"."enabled", "w"."previous_secret", "w"."previous_secret_expires_at" from "webhook_deliveries" as "d" left join "webhooks" as "w" on "w"."company_id" = "d"."company_id" and "w"."id" = "d"."webhook_id" where "d"."company_id" in (?) and "d"."id" in (?, ?) order by "d"."next_attempt_at";
commit;

-- finish
begin immediate;
update "webhook_deliveries" set "status" = ?, "attempts" = ?, "last_status_code" = ?, "last_error" = ?, "last_response_body" = ?, "next_attempt_at" = ?, "delivered_at" = ?, "lease_until" = ?, "lease_owner" = ? where "company_id" in (?) and "id" in (?) and "lease_owner" = ?;
commit;

-- redeliver
update "webhook_deliveries" set "status" = ?, "next_attempt_at" = ?, "delivered_at" = ? where "company_id" = ? and "webhook_id" = ? and "id" = ? returning "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body";

-- listForWebhook
select "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body" from "webhook_deliveries" where "company_id" = ? and "webhook_id" = ? order by "id" desc limit 100;

-- listForCompany: failed
select "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body" from "webhook_deliveries" where "company_id" = ? and "status" = ? order by "id" desc limit 100;

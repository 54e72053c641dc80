-- unitOfWork.run + insertMany
begin;
insert into "webhook_deliveries" ("company_id", "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "last_response_body", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15), ($16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30);
commit;

-- claim
begin;
select "company_id", "id", "webhook_id" from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" <= $1 and "lease_until" <= $2 order by "next_attempt_at" limit $3 for update skip locked;
update "webhook_deliveries" set "lease_until" = $1, "lease_owner" = $2 where "company_id" in ($3) and "id" in ($4);
select "d"."id", "d"."webhook_id", "d"."event_type", "d"."payload", "d"."status", "d"."attempts", "d"."last_status_code", "d"."last_error", "d"."next_attempt_at", "d"."lease_until", "d"."lease_owner", "d"."created_at", "d"."delivered_at", "d"."company_id", "w"."url", "w"."secret", "w"."enabled", "w"."previous_secret", "w"."previous_secret_expires_at" from "webhook_deliveries" as "d" left join "webhooks" as "w" on "w"."company_id" = "d"."company_id" and "w"."id" = "d"."webhook_id" where "d"."company_id" in ($1) and "d"."id" in ($2) order by "d"."next_attempt_at";
commit;

-- claim: webhooks and companies at their share are skipped
begin;
select "company_id", "id", "webhook_id" from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" <= $1 and "lease_until" <= $2 and "company_id" not in ($3, $4) and "webhook_id" not in ($5) order by "next_attempt_at" limit $6 for update skip locked;
update "webhook_deliveries" set "lease_until" = $1, "lease_owner" = $2 where "company_id" in ($3) and "id" in ($4, $5);
select "d"."id", "d"."webhook_id", "d"."event_type", "d"."payload", "d"."status", "d"."attempts", "d"."last_status_code", "d"."last_error", "d"."next_attempt_at", "d"."lease_until", "d"."lease_owner", "d"."created_at", "d"."delivered_at", "d"."company_id", "w"."url", "w"."secret", "w"."enabled", "w"."previous_secret", "w"."previous_secret_expires_at" from "webhook_deliveries" as "d" left join "webhooks" as "w" on "w"."company_id" = "d"."company_id" and "w"."id" = "d"."webhook_id" where "d"."company_id" in ($1) and "d"."id" in ($2, $3) order by "d"."next_attempt_at";
commit;

-- finish
begin;
update "webhook_deliveries" set "status" = $1, "attempts" = $2, "last_status_code" = $3, "last_error" = $4, "last_response_body" = $5, "next_attempt_at" = $6, "delivered_at" = $7, "lease_until" = $8, "lease_owner" = $9 where "company_id" in ($10) and "id" in ($11) and "lease_owner" = $12;
commit;

-- redeliver
update "webhook_deliveries" set "status" = $1, "next_attempt_at" = $2, "delivered_at" = $3 where "company_id" = $4 and "webhook_id" = $5 and "id" = $6 returning "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body";

-- listForWebhook
select "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body" from "webhook_deliveries" where "company_id" = $1 and "webhook_id" = $2 order by "id" desc limit $3;

-- listForCompany: failed
select "id", "webhook_id", "event_type", "payload", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "lease_until", "lease_owner", "created_at", "delivered_at", "last_response_body" from "webhook_deliveries" where "company_id" = $1 and "status" = $2 order by "id" desc limit $3;

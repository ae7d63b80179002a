// Stale before anyone clicks, for every waiting write (DESIGN.md §14, issue
// 29): a proposal shows a change as it stood when it was made — a deploy its
// diff from what was live, a secret its version, a member their role, an
// environment its protection. When the same target was changed since by
// anyone (an ok audit entry of a write on it, recorded after the proposal),
// what it shows is no longer what would run: it is stale, with who changed
// what, and accepting it is refused with that sentence. Read in SQL from the
// audit, which every write commits with, so every server and every read
// agrees the moment the change commits; the project's change notices make the
// consoles read it again. An edit (`write_document`) is stale by its base
// revision instead (threads.ts), which says more.
//
// Written with `"proposals"` spelled out: the claim's UPDATE leaves its own
// columns unqualified, which the audit's `input` would capture.
import { sql } from 'drizzle-orm';

/** Which writes of the audit change a waiting proposal's target, and how the target is named, tool by tool. */
const TARGETS = sql`
  ("proposals"."tool" in ('deploy', 'rollback') and a.tool in ('deploy', 'rollback')
    and a.environment = "proposals"."environment" and a.input->>'path' = "proposals"."input"->>'path')
  or ("proposals"."tool" in ('set_secret', 'delete_secret') and a.tool in ('set_secret', 'delete_secret')
    and a.environment = "proposals"."environment" and a.input->>'name' = "proposals"."input"->>'name')
  or ("proposals"."tool" in ('set_member_role', 'remove_member') and a.tool in ('set_member_role', 'remove_member')
    and a.input->>'operator' = "proposals"."input"->>'operator')
  or ("proposals"."tool" = 'set_environment_protection' and a.tool = 'set_environment_protection'
    and a.environment = "proposals"."environment")
  or ("proposals"."tool" = 'create_environment' and a.tool = 'create_environment'
    and a.input->>'name' = "proposals"."input"->>'name')
  or ("proposals"."tool" = 'delete_document' and a.tool in ('write_document', 'delete_document')
    and a.input->>'path' = "proposals"."input"->>'path')`;

/** The proposal's target in words. */
const TARGET_NAME = sql`case
  when "proposals"."tool" in ('deploy', 'rollback') then ("proposals"."input"->>'path') || ' in ' || "proposals"."environment"
  when "proposals"."tool" in ('set_secret', 'delete_secret') then ("proposals"."input"->>'name') || ' in ' || "proposals"."environment"
  when "proposals"."tool" in ('set_member_role', 'remove_member') then 'the role of ' || ("proposals"."input"->>'operator')
  when "proposals"."tool" = 'set_environment_protection' then 'the protection of ' || "proposals"."environment"
  when "proposals"."tool" = 'create_environment' then 'the environment ' || ("proposals"."input"->>'name')
  else "proposals"."input"->>'path' end`;

/**
 * Why a waiting proposal can no longer run as shown, or null: a text-valued
 * SQL expression over the `proposals` row in scope.
 */
export const movedSinceProposed = sql<string | null>`(case when "proposals"."status" = 'pending' and "proposals"."tool" <> 'write_document' then (
  select ${TARGET_NAME} || ' changed since this was proposed: ' || coalesce(a.operator, 'someone') || ' ran ' || a.tool
    || ' at ' || to_char(a.at at time zone 'UTC', 'HH24:MI:SS') || ' UTC, so what this shows is not what would run; ask again'
  from audit_entries a
  where a.project = "proposals"."project" and a.outcome = 'ok' and a.at > "proposals"."created_at" and (${TARGETS})
  order by a.at desc, a.id desc limit 1) end)`;

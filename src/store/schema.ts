// The one schema of the store, for PGlite and PostgreSQL alike. Migrations in
// ./migrations are generated from it by drizzle-kit (`npm run db:generate`).
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const operators = pgTable('operators', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  owner: boolean('owner').notNull().default(false),
  createdAt: createdAt(),
});

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const environments = pgTable(
  'environments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    protected: boolean('protected').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('environments_project_name').on(t.projectId, t.name)],
);

export const ROLES = ['viewer', 'developer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const memberships = pgTable(
  'memberships',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.operatorId] }), index('memberships_operator').on(t.operatorId)],
);

export const TOKEN_KINDS = ['operator', 'service'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The operator who holds it (for a service token: who minted it). */
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TOKEN_KINDS }).notNull(),
    name: text('name').notNull(),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    hash: text('hash').notNull().unique(),
    /** A service token reads the live configuration of this environment only. */
    environmentId: uuid('environment_id').references(() => environments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('tokens_operator').on(t.operatorId).where(sql`${t.revokedAt} is null`)],
);

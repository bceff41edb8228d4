import { z } from 'zod';
import {
  Statement,
  StatementAccount,
  StatementEvery,
  StatementEveryRequest,
  StatementFile,
  StatementFormat,
  StatementProgress,
  StatementRequest,
  StatementVerdict,
} from '../statements.ts';

// Statements (docs/statements.md): built in the core from the exchange's account book and the desk's
// records, exported and issued by the id the core gave them, verified from the file's bytes.

/** A statement file, as its bytes (a CSV is text, a PDF is not): at most 20 MB. */
const FileBytes = z
  .string()
  .max(28_000_000, 'the file is larger than 20 MB')
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be the file as base64');

export const statementsChannels = {
  statementAccounts: { request: z.object({}).strict(), response: z.array(StatementAccount) },
  /** Reads the account book of the period (up to a year: §8.1 windows), and builds the statement. */
  statementBuild: { request: StatementRequest, response: Statement },
  /** Several accounts or currencies, one after another (cancel stops between them): each statement's figures. */
  statementBuildEvery: { request: StatementEveryRequest, response: StatementEvery },
  /** A statement the core built and still holds, whole (what Show opens from a run's list). */
  statementGet: { request: z.object({ id: z.string().uuid() }).strict(), response: Statement },
  statementProgress: { request: z.object({}).strict(), response: StatementProgress },
  statementCancel: { request: z.object({}).strict(), response: z.object({}) },
  /** The built statement `id` as CSV or PDF; its SHA-256 is journaled as issued before the file is handed over. */
  statementIssue: { request: z.object({ id: z.string().uuid(), format: StatementFormat }).strict(), response: StatementFile },
  statementVerify: { request: z.object({ content_base64: FileBytes }).strict(), response: StatementVerdict },
} as const;

// What a caller is shown of the catalogue: every tool that exists for it,
// each with its published schema and whether the operator could run it where
// the caller points (advisory: running checks again).
import type { Operator } from '../access/operators.js';
import type { ProjectAccess } from '../domain/projects.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { Restrictions, ToolDescriptor } from './invocation.js';
import { allowedIn, changesSomething, mayDecideIn } from './permits.js';
import { publishedSchema } from './scope.js';
import type { Tool } from './types.js';

export interface DescribeOptions extends Restrictions {
  /** False for the REST route, which fills nothing from the caller's scope. */
  scopeFills?: boolean;
  /** The caller proposes its writes: no tool that decides a change request is allowed it. */
  proposing?: boolean;
}

/**
 * The conversation tools only for a conversation. A filtered-out tool does
 * not exist; on a read-only connection neither does one that changes
 * anything. `where` is also the caller's scope, which fills a `project` or
 * `environment` left out, unless `scopeFills` is false: then the published
 * schema requires what the tool needs.
 */
export async function describeTools(
  catalogue: readonly Tool[],
  directory: ProjectDirectory,
  operator: Operator,
  where: { project?: string | null; environment?: string | null },
  options: DescribeOptions,
): Promise<ToolDescriptor[]> {
  const projects = await projectsWhere(directory, operator, where.project);
  const fills = options.scopeFills === false ? {} : where;
  const visible = catalogue.filter(
    (tool) =>
      (tool.audience === 'public' || options.conversation) &&
      (!options.only || options.only.has(tool.name)) &&
      !(options.readOnly && changesSomething(tool)),
  );
  return visible.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: publishedSchema(tool, fills),
    permission: tool.permission,
    tag: tool.tag,
    allowed:
      !(tool.decides && options.proposing) &&
      (tool.decides
        ? projects.some(mayDecideIn)
        : tool.scope === 'none' || projects.some((project) => allowedIn(tool, project, where.environment))),
    ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
    ...(tool.editsSharedBuffer ? { edits_buffer: true as const } : {}),
  }));
}

/** The project named, if the operator has it; with none named, every project the operator has. */
async function projectsWhere(directory: ProjectDirectory, operator: Operator, slug: string | null | undefined): Promise<ProjectAccess[]> {
  const slugs = slug ? [slug] : await directory.visibleSlugs(operator);
  const found = await Promise.all(slugs.map((one) => directory.find(operator, one)));
  return found.filter((project): project is ProjectAccess => project !== null);
}

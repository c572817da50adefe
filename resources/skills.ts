import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../src/errors.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { packageRoot } from '../src/package-root.js';

export interface Skill {
  name: string;
  description: string;
  text: string;
}

/** A skill's name as the Agent Skills format allows it: lowercase letters, digits and single hyphens. */
const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The frontmatter of a SKILL.md: `name` and `description` as single-line `key: value` scalars
 * (all our skills use; a quoted or multi-line value is refused rather than misread).
 */
export function parseSkill(text: string): Skill {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error('SKILL.md does not begin with --- frontmatter ---');
  const fields = new Map<string, string>();
  for (const line of match[1]!.split('\n')) {
    const field = /^([a-z-]+): (\S.*)$/.exec(line);
    if (!field || /^["'|>]/.test(field[2]!)) throw new Error(`frontmatter line not understood: ${line}`);
    fields.set(field[1]!, field[2]!);
  }
  const name = fields.get('name');
  const description = fields.get('description');
  if (!name || !SKILL_NAME.test(name)) throw new Error(`frontmatter name "${name}" is not a skill name`);
  if (!description) throw new Error(`skill ${name} has no description`);
  return { name, description, text };
}

/** The skills shipped in this package: skills/<name>/SKILL.md, read when a client asks. */
export async function shippedSkills(dir = join(packageRoot(), 'skills')): Promise<Skill[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const skills = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && SKILL_NAME.test(entry.name))
      .map(async (entry) => {
        const skill = parseSkill(await readFile(join(dir, entry.name, 'SKILL.md'), 'utf8'));
        if (skill.name !== entry.name) throw new Error(`skills/${entry.name} names itself ${skill.name}`);
        return skill;
      }),
  );
  return skills.sort((a, b) => a.name.localeCompare(b.name));
}

export const skillUri = (name: string) => `skill://${name}/SKILL.md`;

/**
 * Workflows that span several tools, in the Agent Skills format, served the way the Skills over
 * MCP convention (SEP-2640) maps a skill's files: `skill://<name>/SKILL.md`, markdown, named and
 * described from its frontmatter.
 */
export default defineResource({
  uriTemplate: 'skill://{name}/SKILL.md',
  name: 'skill',
  title: 'A workflow across tools (Agent Skills format)',
  description: 'Steps, tool calls and checks for a task that takes several tools.',
  mimeType: 'text/markdown',
  async list() {
    return (await shippedSkills()).map((skill) => ({
      uri: skillUri(skill.name),
      name: skill.name,
      description: skill.description,
    }));
  },
  complete: {
    name: async (typed) =>
      (await shippedSkills()).map((skill) => skill.name).filter((name) => name.startsWith(typed)),
  },
  async read(params) {
    const skills = await shippedSkills();
    const skill = skills.find((entry) => entry.name === params.name);
    if (!skill)
      throw new InputError(`No skill "${params.name}".`, {
        fix: `Skills: ${skills.map((s) => s.name).join(', ')}.`,
      });
    return { text: skill.text };
  },
});

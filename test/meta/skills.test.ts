/**
 * Skills: workflows across tools as skills/<name>/SKILL.md (Agent Skills format), served as
 * `skill://<name>/SKILL.md` resources and shipped in the package. Every tool a skill names exists,
 * and every argument it passes is one the tool takes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSkill, type Skill, shippedSkills, skillUri } from '../../resources/skills.js';
import { instructionsFor } from '../../src/mcp/instructions.js';
import { toolCatalog } from '../../tools/index.js';
import { resourceText, startHarness } from '../helpers/harness.js';

const skills = await shippedSkills();
const listings = new Map(toolCatalog.entries.map((entry) => [entry.name, entry.listing]));

/** Every `tool_name {json}` a skill shows, and the tools its "## Tools" section lists. */
function callsOf(skill: Skill) {
  const calls = [...skill.text.matchAll(/`([a-z0-9]+(?:_[a-z0-9]+)+) (\{.*?\})`/g)].map((match) => ({
    tool: match[1]!,
    args: JSON.parse(match[2]!) as Record<string, unknown>,
  }));
  const section = /## Tools\n\n(.+)\n/.exec(skill.text)?.[1] ?? '';
  return { calls, listed: section.split(', ').map((name) => name.trim()) };
}

describe('skills', () => {
  it('ship the five workflows the issue names, each under its own name', () => {
    expect(skills.map((skill) => skill.name)).toEqual([
      'compare-models',
      'eval-worst-items',
      'long-video',
      'narrated-clip',
      'pay-a-quote',
    ]);
    for (const skill of skills) {
      expect(skill.name.length).toBeLessThanOrEqual(64);
      expect(skill.description.length, skill.name).toBeLessThanOrEqual(1024);
      expect(skill.description, skill.name).toMatch(/Use when/);
    }
    const files = JSON.parse(readFileSync('package.json', 'utf8')).files as string[];
    expect(files).toContain('skills');
  });

  it.each(skills.map((skill) => skill.name))(
    '%s names only tools that exist, with arguments they take',
    (name) => {
      const skill = skills.find((entry) => entry.name === name)!;
      const { calls, listed } = callsOf(skill);
      expect(calls.length).toBeGreaterThan(2);
      for (const tool of listed) expect(listings.has(tool), `${name} lists ${tool}`).toBe(true);
      for (const { tool, args } of calls) {
        expect(listed, `${name} calls ${tool} but does not list it`).toContain(tool);
        const schema = listings.get(tool)!.inputSchema as {
          properties?: Record<string, { enum?: unknown[] }>;
        };
        for (const [arg, value] of Object.entries(args)) {
          expect(Object.keys(schema.properties ?? {}), `${name}: ${tool} takes no "${arg}"`).toContain(arg);
          const allowed = schema.properties?.[arg]?.enum;
          if (allowed && !String(value).startsWith('<'))
            expect(allowed, `${name}: ${tool}.${arg}`).toContain(value);
        }
      }
    },
  );

  it('refuses a frontmatter it would misread', () => {
    expect(() => parseSkill('no frontmatter')).toThrow(/frontmatter/);
    expect(() => parseSkill('---\nname: Bad Name\ndescription: x\n---\n')).toThrow(/not a skill name/);
    expect(() => parseSkill('---\nname: ok\ndescription: >\n  folded\n---\n')).toThrow(/not understood/);
  });

  it('are named in the instructions, where a client that defers tools reads first', () => {
    const text = instructionsFor({ kind: 'none' });
    for (const skill of skills) expect(text).toContain(skill.name);
  });
});

describe('skills as resources', () => {
  it('are listed as skill://<name>/SKILL.md, markdown, with their description, and read back whole', async () => {
    const h = await startHarness();
    try {
      const { resources } = await h.client.listResources();
      const listed = resources.filter((resource) => resource.uri.startsWith('skill://'));
      expect(listed.map((resource) => resource.uri)).toEqual(skills.map((skill) => skillUri(skill.name)));
      for (const [index, resource] of listed.entries()) {
        expect(resource).toMatchObject({
          name: skills[index]!.name,
          description: skills[index]!.description,
          mimeType: 'text/markdown',
        });
        const read = await h.client.readResource({ uri: resource.uri });
        expect(resourceText(read.contents[0])).toBe(readFileSync(`skills/${resource.name}/SKILL.md`, 'utf8'));
      }
      for (const uri of ['skill://no-such-skill/SKILL.md', 'skill://..%2F..%2Fpackage.json/SKILL.md'])
        await expect(h.client.readResource({ uri })).rejects.toThrow(/No skill/);
    } finally {
      await h.close();
    }
  });
});

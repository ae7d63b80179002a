import { describe, expect, it } from 'vitest';
import { documentPathProblem } from '../../src/documents/index.js';

describe('documentPathProblem', () => {
  it.each(['app.yaml', 'flags.yml', 'config.json', 'services/shop/app.yaml', 'a-b_c.d.yaml', '0.yaml', `${'a'.repeat(195)}.yaml`])(
    'accepts %s',
    (path) => {
      expect(documentPathProblem(path)).toBeNull();
    },
  );

  it.each([
    ['', 'the path is empty; name the document, e.g. app.yaml'],
    [`${'a'.repeat(196)}.yaml`, 'the path is 201 characters long; use at most 200'],
    ['/app.yaml', 'the path "/app.yaml" starts with "/"; paths are relative to the project, e.g. app.yaml'],
    ['App.yaml', 'the path "App.yaml" contains "A"; use only a-z, 0-9, ".", "_", "-" and "/"'],
    ['my app.yaml', 'the path "my app.yaml" contains " "; use only a-z, 0-9, ".", "_", "-" and "/"'],
    ['a\\b.yaml', 'the path "a\\\\b.yaml" contains "\\\\"; use only a-z, 0-9, ".", "_", "-" and "/"'],
    ['ü.yaml', 'the path "ü.yaml" contains "ü"; use only a-z, 0-9, ".", "_", "-" and "/"'],
    ['a//b.yaml', 'the path "a//b.yaml" has an empty segment; remove the extra "/"'],
    ['dir/', 'the path "dir/" has an empty segment; remove the extra "/"'],
    ['../app.yaml', 'the path "../app.yaml" has a ".." segment; paths cannot leave the project'],
    ['a/../b.yaml', 'the path "a/../b.yaml" has a ".." segment; paths cannot leave the project'],
    ['./app.yaml', 'the path "./app.yaml" has a "." segment; remove it'],
    ['app.txt', 'the path "app.txt" must end in .yaml, .yml or .json'],
    ['app.yaml.bak', 'the path "app.yaml.bak" must end in .yaml, .yml or .json'],
    ['yaml', 'the path "yaml" must end in .yaml, .yml or .json'],
  ])('refuses %j', (path, problem) => {
    expect(documentPathProblem(path)).toBe(problem);
  });
});

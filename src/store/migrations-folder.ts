// Where the migrations are: two levels below the package root, from src/store and from dist/store alike.
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/store/migrations', import.meta.url));

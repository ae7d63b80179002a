import { Link } from 'wouter';

export function NotFound() {
  return (
    <section aria-labelledby="title">
      <h1 id="title">No such page</h1>
      <p>
        <Link href="/">Back to your projects</Link>
      </p>
    </section>
  );
}

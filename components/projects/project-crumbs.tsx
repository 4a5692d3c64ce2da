import Link from "next/link";

/** Projects / <project> [/ extra…] */
export function ProjectCrumbs({ id, name, extra }: { id: string; name: string; extra?: { href: string; label: string }[] }) {
  return (
    <>
      <Link href="/">Projects</Link> / <Link href={`/projects/${id}`}>{name}</Link>
      {extra?.map((e) => (
        <span key={e.href}>
          {" / "}
          <Link href={e.href}>{e.label}</Link>
        </span>
      ))}
    </>
  );
}

/** The rationale a human writes for a signed decision; it is part of what is signed. */
export function RationaleInput({ value, onChange, label }: { value: string; onChange: (text: string) => void; label: string }) {
  return (
    <textarea
      className="w-full rounded-md border border-border bg-surface p-2 text-sm"
      rows={2}
      placeholder="Rationale (recorded in the signed decision)"
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** Which approver key signs a decision: each shown as the human actor it signs for. */
export function SignerSelect({ signers, value, onChange }: { signers: string[]; value: string; onChange: (keyId: string) => void }) {
  return (
    <label>
      Sign as{" "}
      <select className="h-8 rounded-md border border-border bg-surface px-2 text-sm" value={value} onChange={(e) => onChange(e.target.value)} aria-label="Sign as key">
        {signers.map((k) => (
          <option key={k} value={k}>
            human:{k}
          </option>
        ))}
      </select>
    </label>
  );
}

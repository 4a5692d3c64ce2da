/** Phase 4: what to offer once a work session's state.json was found (the seed's table). */
export interface HandoffOption {
  label: string;
  command: string;
}

export function handoffOptions(type: string | null, status: string | null, slug: string): HandoffOption[] {
  const resume = (label: string) => ({ label, command: `/resume-work ${slug}` });
  let opts: HandoffOption[] = [];
  if (type === "implementation" && status === "in_progress") opts = [resume("Resume implementation")];
  else if (type === "implementation" && status === "completed") opts = [resume("Extend implementation")];
  else if (type === "requirements" && status === "in_progress") opts = [resume("Resume requirements")];
  else if (type === "requirements" && status === "completed") opts = [{ label: "Start implementing", command: `/implement ${slug}` }, resume("Extend requirements")];
  else if (type === "brainstorm" && status === "in_progress") opts = [resume("Resume brainstorm")];
  else if (type === "brainstorm" && status === "completed") opts = [resume("Create requirements from brainstorm")];
  else if (type === "proposal") opts = [resume("Resume proposal")];
  else if (type === "epic") opts = [resume("Resume epic")];
  return [...opts, { label: "No, just reviewing", command: "" }];
}

/** The outcome of an action a person just took: announced politely when it worked, as an alert when not. */
export function ActionMessage({ message }: { message: { tone: "ok" | "danger"; text: string } | null }) {
  if (!message) return null;
  return (
    <p role={message.tone === "danger" ? "alert" : "status"} className={`text-xs ${message.tone === "danger" ? "text-danger" : "text-ok"}`}>
      {message.text}
    </p>
  );
}

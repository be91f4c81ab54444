interface EmptyStateProps {
  title: string;
  body: string;
}

/** What a screen will do, said plainly while it has nothing to show. */
export function EmptyState({ title, body }: EmptyStateProps) {
  return (
    <div className="empty-state" role="note">
      <h2>{title}</h2>
      <p>{body}</p>
    </div>
  );
}

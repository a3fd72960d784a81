export type Choice = { value: string; label: string };

/** Choices of records with an id and a name (the team's lead sources): the id is sent, the name shown. */
export const namedChoices = (items: readonly { id: string; name: string }[]): Choice[] =>
  items.map((item) => ({ value: item.id, label: item.name }));

/**
 * A select's options, one per choice; first, where there is `none`, the empty choice (its
 * text `none`) or a choice of its own (such as "Automatic").
 */
export function SelectOptions({ none, choices }: { none?: string | Choice; choices: readonly Choice[] }) {
  const first = typeof none === "string" ? { value: "", label: none } : none;
  return (
    <>
      {first ? <option value={first.value}>{first.label}</option> : null}
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </>
  );
}

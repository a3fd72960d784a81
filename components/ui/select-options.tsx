export type Choice = { value: string; label: string };

/** Choices of records with an id and a name (the team's lead sources): the id is sent, the name shown. */
export const namedChoices = (items: readonly { id: string; name: string }[]): Choice[] =>
  items.map((item) => ({ value: item.id, label: item.name }));

/** A select's options: the empty choice first (its text `none`), then one per choice. */
export function SelectOptions({ none, choices }: { none: string; choices: readonly Choice[] }) {
  return (
    <>
      <option value="">{none}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </>
  );
}

"use client";

import { useEffect, useRef, useState } from "react";
import { PlusIcon } from "@/components/ui/icons";
import { buttonClass, cardClass } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { StoredRule } from "@/lib/routing/assignment-rules";
import { RuleEditor } from "./rule-editor";
import { RuleItem } from "./rule-item";
import type { RoutingChoices } from "./rule-words";

/** What the editor is open for: a new rule, or the rule with this id. */
type Editing = { ruleId: string | null } | null;

/**
 * The team's rules in order, first first, and the editor for adding or changing one (one at a
 * time, below the list). Closing the editor gives the focus back to the button that opened it.
 */
export function RoutingRules({ slug, rules, choices }: { slug: string; rules: StoredRule[]; choices: RoutingChoices }) {
  const [editing, setEditing] = useState<Editing>(null);
  const [announced, setAnnounced] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const refocus = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const hydrated = useHydrated();
  const editedRule = editing?.ruleId ? (rules.find((rule) => rule.id === editing.ruleId) ?? null) : null;

  function open(ruleId: string | null, from: HTMLElement) {
    opener.current = from;
    setAnnounced(null);
    setEditing({ ruleId });
  }

  function close(message: string | null) {
    refocus.current = true;
    setEditing(null);
    setAnnounced(message);
  }

  // Once the editor is gone: its opener (an Edit button), else "Add a rule", which is back.
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    (opener.current?.isConnected ? opener.current : addButton.current)?.focus();
  }, [editing]);

  return (
    <div className="space-y-4">
      {rules.length ? (
        <ol aria-label="Assignment rules, first first" className={`${cardClass} divide-y divide-slate-100`}>
          {rules.map((rule, index) => (
            <RuleItem
              key={rule.id}
              slug={slug}
              rule={rule}
              place={index + 1}
              count={rules.length}
              choices={choices}
              onEdit={(from) => open(rule.id, from)}
            />
          ))}
        </ol>
      ) : (
        <p className={`${cardClass} px-5 py-4 text-sm text-slate-600`}>No rules yet: new leads go to the fallback below.</p>
      )}
      <p role="status" className="sr-only">
        {announced}
      </p>
      {editing && (editing.ruleId === null || editedRule) ? (
        <RuleEditor
          key={editing.ruleId ?? "new"}
          slug={slug}
          rule={editedRule}
          choices={choices}
          onSaved={() => close(editing.ruleId ? "Rule saved." : "Rule added at the end of the list.")}
          onCancel={() => close(null)}
        />
      ) : (
        <button
          ref={addButton}
          type="button"
          disabled={!hydrated}
          onClick={(event) => open(null, event.currentTarget)}
          className={buttonClass("primary")}
        >
          <PlusIcon /> Add a rule
        </button>
      )}
    </div>
  );
}

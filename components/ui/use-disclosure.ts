"use client";

import { useCallback, useRef, useState } from "react";
import { useDismiss } from "./use-dismiss";

/**
 * A disclosure: a button that shows and hides the element whose id is `controls`. Spread
 * `toggle` on the button and put `root` on the element around both, so Escape or a press
 * outside it closes the disclosure; `close` closes it too (after following a link in it).
 */
export function useDisclosure(controls: string) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, root, close);
  const toggle = { "aria-expanded": open, "aria-controls": controls, onClick: () => setOpen((v) => !v) };
  return { open, close, root, toggle };
}

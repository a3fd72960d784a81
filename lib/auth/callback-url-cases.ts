// Known open-redirect bypasses of a callbackUrl, shared by the unit test and the browser
// and HTTP tests (e2e/ui/sign-in-redirect.spec.ts). `expected` is what safeCallbackUrl
// returns; the end-to-end tests check the page never leaves the origin and never fails.
export const CALLBACK_URL_CASES: { input: string; expected: string }[] = [
  { input: "/t/demo/leads?q=ada", expected: "/t/demo/leads?q=ada" },
  { input: "/", expected: "/" },
  { input: "/t/demo/leads#top", expected: "/t/demo/leads#top" },
  { input: "/t/demo/./leads", expected: "/t/demo/leads" },
  { input: "", expected: "/" },
  // Absolute and protocol-relative URLs.
  { input: "https://evil.example/", expected: "/" },
  { input: "http:evil.example", expected: "/" },
  { input: "//evil.example/path", expected: "/" },
  { input: "///evil.example", expected: "/" },
  { input: "////evil.example", expected: "/" },
  // Backslashes: the URL parser reads "\" as "/" in http(s) URLs.
  { input: "/\\evil.example", expected: "/" },
  { input: "\\\\evil.example", expected: "/" },
  { input: "\\/evil.example", expected: "/" },
  { input: "/\\/evil.example", expected: "/" },
  // Tab, CR, LF, NUL and other controls: dropped by the parser or refused by headers.
  { input: "/\t/evil.example", expected: "/" },
  { input: "/\t\\evil.example", expected: "/" },
  { input: "/\n/evil.example", expected: "/" },
  { input: "/\r/evil.example", expected: "/" },
  { input: "/\r\n/evil.example", expected: "/" },
  { input: "/\u0000/evil.example", expected: "/" },
  { input: "/t/demo\n", expected: "/" },
  { input: "/t/demo\u0000", expected: "/" },
  { input: "/\u000b/evil.example", expected: "/" },
  { input: "/\u007f/evil.example", expected: "/" },
  { input: "/\u0085/evil.example", expected: "/" },
  // Leading spaces and the like: the parser strips them, a browser may too.
  { input: " //evil.example", expected: "/" },
  { input: " /t/demo", expected: "/" },
  { input: "\u00a0//evil.example", expected: "/" },
  // Schemes.
  { input: "javascript:alert(1)", expected: "/" },
  { input: "JaVaScRiPt:alert(1)", expected: "/" },
  { input: "/javascript:alert(1)", expected: "/javascript:alert(1)" },
  { input: "data:text/html,<script>alert(1)</script>", expected: "/" },
  // Encoded forms stay encoded: the path is not decoded again, so these are same-origin paths.
  { input: "/%2F/evil.example", expected: "/%2F/evil.example" },
  { input: "/%5C/evil.example", expected: "/%5C/evil.example" },
  { input: "/%09/evil.example", expected: "/%09/evil.example" },
  // Dot segments that resolve to a protocol-relative path.
  { input: "/a/..//evil.example", expected: "/" },
  { input: "/a/../\\evil.example", expected: "/" },
  { input: "/.//evil.example", expected: "/" },
  // Userinfo and host tricks.
  { input: "/@evil.example", expected: "/@evil.example" },
  { input: "//user@evil.example", expected: "/" },
];

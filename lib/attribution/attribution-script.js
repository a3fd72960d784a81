/*
 * Lead intake attribution script (docs/attribution.md, "The attribution script"): put it on
 * every page of a site. It records where the visitor came from (the first visit, and the
 * latest visit from a campaign or another site) in localStorage, and adds it to every form
 * on the page as hidden inputs, so that the form's post carries it. It never sends anything
 * itself, sets no cookie and never throws. Served as /api/widget/attribution.js; written in
 * the JavaScript of old browsers on purpose (no build step, no dependency).
 */
(function () {
  "use strict";
  try {
    var KEY = "leadintake.attribution";
    var VERSION = 1;
    var FIRST_TOUCH_MS = 90 * 24 * 60 * 60 * 1000;
    var MARK = "data-lead-intake";
    // Parameters that make a visit a campaign's: the UTM tags and the ad platforms' click ids.
    var CAMPAIGN = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"].concat([
      "gclid",
      "gbraid",
      "wbraid",
      "fbclid",
      "msclkid",
      "ttclid",
      "li_fat_id",
    ]);
    var NAMES = CAMPAIGN.concat(["landing_page", "referrer", "seen_at"]);
    var win = window;
    var doc = document;
    var loc = win.location;
    var script = doc.currentScript || doc.querySelector('script[src*="attribution.js"]');
    var api = win.LeadIntake;
    if (!api || (typeof api !== "object" && typeof api !== "function")) api = win.LeadIntake = {};
    // Loaded twice on one page: the first copy does the work.
    if (typeof api.attribution === "function") return;

    var state = null; // { first: touch, last: touch } once recorded (after consent, if asked)
    var fields = {}; // the hidden inputs' names and values

    // One line (control characters and line breaks become a space), trimmed, at most `max`
    // characters without splitting a surrogate pair; "" for anything that is not text.
    var clean = function (value, max) {
      if (typeof value !== "string") return "";
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      value = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/^\s+|\s+$/g, "");
      if (value.length > max) value = value.slice(0, /[\ud800-\udbff]/.test(value.charAt(max - 1)) ? max - 1 : max);
      return value;
    };

    // A touch keeps only our names, with clean non-empty values (a stored one may be anything).
    var touch = function (values) {
      var out = {};
      for (var i = 0; i < NAMES.length; i++) {
        var name = NAMES[i];
        var value = clean(values && values[name], /landing_page|referrer/.test(name) ? 1000 : 200);
        if (value) out[name] = value;
      }
      return out;
    };

    var withoutFragment = function (url) {
      return String(url || "").split("#")[0];
    };

    // This page load: its campaign parameters (first value of each, names in any case), its
    // address, an outside referrer and the time. `arrived`: it came from a campaign or another site.
    var thisVisit = function () {
      var values = { landing_page: withoutFragment(loc.href), seen_at: new Date().toISOString() };
      var pairs = loc.search.slice(1).split("&");
      var arrived = false;
      for (var i = 0; i < pairs.length; i++) {
        var at = pairs[i].indexOf("=");
        var name, value;
        try {
          name = decodeURIComponent((at < 0 ? pairs[i] : pairs[i].slice(0, at)).replace(/\+/g, " ")).toLowerCase();
          value = at < 0 ? "" : decodeURIComponent(pairs[i].slice(at + 1).replace(/\+/g, " "));
        } catch (malformed) {
          continue;
        }
        if (CAMPAIGN.indexOf(name) >= 0 && !(name in values)) values[name] = value;
      }
      var referrer = withoutFragment(doc.referrer);
      var host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(referrer);
      if (host && host[1].toLowerCase() !== loc.host.toLowerCase()) values.referrer = referrer;
      var visit = touch(values);
      for (var key in visit) if (key === "referrer" || CAMPAIGN.indexOf(key) >= 0) arrived = true;
      return { touch: visit, arrived: arrived };
    };

    var storage = function () {
      try {
        return win.localStorage || null;
      } catch (disabled) {
        return null;
      }
    };

    var load = function () {
      try {
        var saved = JSON.parse(storage().getItem(KEY));
        var first = touch(saved.first);
        var seen = Date.parse(first.seen_at);
        if (saved.v !== VERSION || !(new Date().getTime() - seen < FIRST_TOUCH_MS)) return null;
        return { first: first, last: touch(saved.last) };
      } catch (missing) {
        return null;
      }
    };

    var save = function () {
      try {
        storage().setItem(KEY, JSON.stringify({ v: VERSION, first: state.first, last: state.last }));
      } catch (disabled) {
        // Storage off or full: this page still gets its inputs, from memory.
      }
    };

    // The first touch: the first visit recorded in the last 90 days (else this one, which is
    // then the last touch too). The last touch: the latest visit from a campaign or another
    // site; any other page load leaves it as it is.
    var record = function () {
      var visit = thisVisit();
      var saved = load();
      state = saved ? { first: saved.first, last: visit.arrived ? visit.touch : saved.last } : { first: visit.touch, last: visit.touch };
      save();
      fields = {};
      for (var name in state.last) fields[name === "seen_at" ? "last_seen_at" : name] = state.last[name];
      for (name in state.first) fields["first_" + name] = state.first[name];
    };

    // Our hidden inputs in one form: added at its end (where React 19's hydration allows
    // them), updated in place, never beside a control of the form's own with that name. A form
    // marked data-lead-intake="off" (a search or sign-in form) gets none.
    var fill = function (form) {
      try {
        var wanted = form.getAttribute(MARK) === "off" ? {} : fields;
        var ours = {};
        var theirs = {};
        var controls = form.elements;
        var name, input;
        for (var i = 0; i < controls.length; i++) {
          name = controls[i].getAttribute("name");
          if (name && controls[i].hasAttribute(MARK)) ours[name] = controls[i];
          else if (name) theirs[name] = true;
        }
        for (name in wanted) {
          if (theirs[name]) continue;
          input = ours[name];
          if (!input) {
            input = doc.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.setAttribute(MARK, "");
            form.appendChild(input);
          }
          if (input.value !== wanted[name]) input.value = wanted[name];
        }
        for (name in ours) if (theirs[name] || !(name in wanted)) ours[name].parentNode.removeChild(ours[name]);
      } catch (ignored) {
        // A form whose own controls hide its DOM members (name="elements") is left alone.
      }
    };

    var fillAll = function () {
      if (!state) return;
      var forms = doc.getElementsByTagName("form");
      for (var i = 0; i < forms.length; i++) fill(forms[i]);
    };

    var start = function () {
      if (state) return;
      record();
      fillAll();
      // Forms added later (a site's own scripts, React): every added element fills the forms
      // again; filling what is already filled changes nothing, so it settles at once.
      if (win.MutationObserver) {
        new MutationObserver(function (changes) {
          for (var i = 0; i < changes.length; i++) {
            for (var j = 0; j < changes[i].addedNodes.length; j++) {
              if (changes[i].addedNodes[j].nodeType === 1) return fillAll();
            }
          }
        }).observe(doc, { childList: true, subtree: true });
      }
      // Without an observer, and for forms changed without one: once the page is parsed, and
      // at every submit, before the browser reads the form's fields.
      if (doc.addEventListener) {
        doc.addEventListener("DOMContentLoaded", fillAll);
        doc.addEventListener(
          "submit",
          function (event) {
            if (event.target && event.target.nodeName === "FORM") fill(event.target);
          },
          true
        );
      }
    };

    var copy = function (value) {
      return JSON.parse(JSON.stringify(value));
    };

    api.consent = function () {
      try {
        api.consented = true;
        start();
      } catch (ignored) {
        // Never throws on a page.
      }
    };
    api.attribution = function () {
      return state ? copy({ first: state.first, last: state.last, fields: fields }) : null;
    };
    // data-consent="wait": nothing is stored or added until the page calls LeadIntake.consent()
    // (or had set LeadIntake.consented = true before this script loaded).
    if (!(script && script.getAttribute("data-consent") === "wait") || api.consented === true) start();
  } catch (ignored) {
    // An old or unusual browser: the page works as it would without this script.
  }
})();

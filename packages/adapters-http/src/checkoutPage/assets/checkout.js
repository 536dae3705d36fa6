// The hosted checkout page's one script: what the page cannot do without it.
// The card goes only to the tokenization route, never into the form; the
// form's fields follow the chosen method; a charge's status is polled until
// it is paid, then its confirmation is fetched from the page itself and the
// buyer taken back to the shop when the link says so; codes get a copy
// button; ticked order bumps and a coupon update the total and installments
// (the server computes them, /pay/{id}/quote; the coupon is checked by the
// public validation). The page works without it for Pix and boleto. No
// framework, no third party, nothing inline (the CSP forbids it).
"use strict";

(function () {
  var body = document.body;
  var text = function (name) { return body.getAttribute("data-text-" + name) || ""; };
  var PAID = ["PAID", "REFUNDED", "PARTIALLY_REFUNDED", "DISPUTE", "CHARGED_BACK"];
  var CLOSED = ["EXPIRED", "CANCELED", "ARCHIVED", "FAILED"];

  function setupCopy() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target) return;
      var label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        var done = function () {
          button.textContent = text("copied");
          setTimeout(function () { button.textContent = label; }, 2000);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(target.value).then(done, function () { target.select(); });
        } else {
          target.select();
          try { if (document.execCommand("copy")) done(); } catch (e) { /* the code stays selected for a manual copy */ }
        }
      });
    });
  }

  function showPaid(region) {
    region.classList.add("paid");
    region.removeAttribute("data-poll");
    var heading = document.createElement("h2");
    heading.textContent = text("paid");
    var detail = document.createElement("p");
    detail.textContent = text("paid-detail");
    region.replaceChildren(heading, detail);
    ["pix", "boleto"].forEach(function (id) { var section = document.getElementById(id); if (section) section.hidden = true; });
  }

  // After the confirmation's pause, to the shop; the link in the text goes at once.
  function setupRedirect() {
    var note = document.querySelector("[data-redirect]");
    if (!note) return;
    var seconds = Number(note.getAttribute("data-redirect-after")) || 5;
    setTimeout(function () { location.assign(note.getAttribute("data-redirect")); }, seconds * 1000);
  }

  // The confirmation as the server renders it (amount, method, date, the link's message), swapped into the live region.
  function confirm(region) {
    fetch(location.href, { headers: { accept: "text/html" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("status");
        if (!fresh || !fresh.classList.contains("paid")) return Promise.reject();
        region.classList.add("paid");
        region.removeAttribute("data-poll");
        region.replaceChildren.apply(region, Array.prototype.slice.call(fresh.childNodes).map(function (node) { return document.importNode(node, true); }));
        ["pix", "boleto"].forEach(function (id) { var section = document.getElementById(id); if (section) section.hidden = true; });
        setupRedirect();
      })
      .catch(function () { showPaid(region); });
  }

  // The bank's answer on a Pix Automático recurrence, in its own live region.
  function showAuthorization(slot, state) {
    if (!state || slot.getAttribute("data-authorization") === state) return;
    slot.setAttribute("data-authorization", state);
    slot.className = "authorization-" + state.toLowerCase();
    slot.textContent = text("authorization-" + state.toLowerCase());
  }

  // The charge's status until it is paid, and a Pix Automático's authorization until the bank answers (before or after the payment).
  function setupPolling() {
    var source = document.querySelector("[data-poll]");
    var region = document.getElementById("status");
    if (!source || !region) return;
    var url = source.getAttribute("data-poll");
    var every = Number(source.getAttribute("data-poll-every")) || 2000;
    var authorization = document.getElementById("authorization-state");
    var paid = region.classList.contains("paid");
    var awaitingBank = function () { return authorization !== null && authorization.getAttribute("data-authorization") === "PENDING"; };
    var timer = setInterval(function () {
      fetch(url, { headers: { accept: "application/json" }, cache: "no-store" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (!answer) return;
          if (authorization) showAuthorization(authorization, answer.recurrenceAuthorization);
          if (!paid && PAID.indexOf(answer.status) >= 0) { paid = true; confirm(region); }
          else if (!paid && CLOSED.indexOf(answer.status) >= 0) { clearInterval(timer); location.reload(); return; }
          if (paid && !awaitingBank()) clearInterval(timer);
        })
        .catch(function () { /* a dropped poll is tried again at the next tick */ });
    }, every);
  }

  function fieldError(field, message) {
    var input = document.querySelector('[data-field="' + field + '"]');
    var slot = document.getElementById("e-" + field.replace(/\./g, "-"));
    if (!input || !slot) return false;
    slot.textContent = message;
    input.setAttribute("aria-invalid", "true");
    return true;
  }

  function clearErrors(form) {
    form.querySelectorAll(".field-error").forEach(function (slot) { slot.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
    var alert = document.getElementById("form-alert");
    alert.hidden = true;
    alert.textContent = "";
  }

  function showAlert(message) {
    var alert = document.getElementById("form-alert");
    alert.textContent = message;
    alert.hidden = false;
    alert.focus();
  }

  function chosenMethod(form) {
    var checked = form.querySelector('input[name="paymentMethod"]:checked');
    return checked ? checked.value : "";
  }

  // Only the chosen method's sections show, and only its fields are required;
  // the card's fieldset is enabled only for a card, so nothing of it is posted otherwise.
  function followMethod(form) {
    var method = chosenMethod(form);
    form.querySelectorAll("[data-method-section]").forEach(function (section) {
      var on = section.getAttribute("data-method-section") === method;
      section.hidden = !on;
      if (section.tagName === "FIELDSET" && section.id === "card") section.disabled = !on;
    });
    form.querySelectorAll("[data-required-for]").forEach(function (input) {
      input.required = input.getAttribute("data-required-for") === method;
    });
  }

  // `MM/AA` as the API takes it, `MM/AAAA`.
  function fullExpiration(value) {
    var match = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(value);
    return match ? match[1] + "/20" + match[2] : value;
  }

  function tokenize(form, button) {
    var value = function (field) { return form.querySelector('[data-field="' + field + '"]').value; };
    var card = {
      number: value("card.number").replace(/[\s-]/g, ""),
      name: value("card.name"),
      expiration: fullExpiration(value("card.expiration")),
      cvv: value("card.cvv")
    };
    var id = form.getAttribute("data-checkout");
    return fetch("/pay/" + encodeURIComponent(id) + "/tokenize", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ card: card })
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (response.ok && answer.cardToken) {
          form.querySelector('input[name="cardToken"]').value = answer.cardToken;
          form.submit();
          return;
        }
        var error = answer && answer.error ? answer.error : {};
        var field = error.details && error.details.field;
        if (!(field && fieldError(field, error.message))) showAlert(error.message || text("tokenize-failed"));
        else showAlert(text("errors"));
        button.disabled = false;
        button.textContent = text("pay");
      });
    }).catch(function () {
      showAlert(text("network-failed"));
      button.disabled = false;
      button.textContent = text("pay");
    });
  }

  function getJson(url, init) {
    return fetch(url, init).then(function (response) { return response.ok ? response.json() : Promise.reject(); });
  }

  // The total, discount and installments for the bumps ticked and the coupon's discount, from the server.
  function setupQuote(form) {
    var id = form.getAttribute("data-checkout");
    var couponInput = form.querySelector('[data-field="couponCode"]');
    var applyButton = form.querySelector(".apply-coupon");
    var result = document.getElementById("coupon-result");
    var bumps = Array.prototype.slice.call(form.querySelectorAll("[data-bump-amount]"));
    var applied = "";
    var generation = 0;

    function quote(discount) {
      var query = new URLSearchParams();
      bumps.forEach(function (box) { if (box.checked) query.append(box.name, box.value); });
      query.set("discount", String(discount));
      return getJson("/pay/" + encodeURIComponent(id) + "/quote?" + query.toString(), { headers: { accept: "application/json" } });
    }

    function validate(code, subtotal) {
      var productIds = (form.getAttribute("data-price-ids") || "").split(" ").filter(Boolean);
      bumps.forEach(function (box) { if (box.checked) productIds.push(box.value); });
      return getJson("/v1/coupons/validate", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ code: code, amount: subtotal / 100, productIds: productIds, chargeType: "ONE_TIME" })
      });
    }

    function show(answer) {
      document.querySelector("#total strong").textContent = answer.total;
      var row = document.getElementById("discount");
      row.hidden = answer.discount === null;
      document.getElementById("discount-amount").textContent = answer.discount || "";
      var select = form.querySelector('select[name="installments"]');
      if (!select) return;
      var chosen = select.value;
      select.replaceChildren.apply(select, answer.installments.map(function (option) {
        var element = new Option(option.label, option.value);
        element.selected = option.value === chosen;
        return element;
      }));
    }

    // Every change asks again from the start; an answer to an older change is dropped.
    function refresh() {
      var mine = ++generation;
      quote(0).then(function (first) {
        if (applied === "") return first;
        return validate(applied, first.subtotal).then(function (verdict) {
          if (!verdict.valid) {
            result.textContent = text("coupon-" + String(verdict.reason || "coupon_not_found").toLowerCase().replace(/_/g, "-"));
            applied = "";
            return first;
          }
          return quote(Math.round(verdict.discountAmount * 100)).then(function (second) {
            result.textContent = second.couponApplied || "";
            return second;
          });
        });
      }).then(function (answer) { if (mine === generation) show(answer); })
        .catch(function () { if (mine === generation && applied !== "") result.textContent = text("coupon-unavailable"); });
    }

    bumps.forEach(function (box) { box.addEventListener("change", refresh); });
    if (!couponInput || !applyButton) return;
    applyButton.hidden = false;
    var apply = function () { applied = couponInput.value.trim(); result.textContent = ""; refresh(); };
    applyButton.addEventListener("click", apply);
    // Enter in the coupon applies it rather than paying.
    couponInput.addEventListener("keydown", function (event) { if (event.key === "Enter") { event.preventDefault(); apply(); } });
  }

  function setupForm() {
    var form = document.querySelector("form.checkout");
    if (!form) return;
    var button = form.querySelector("button.pay");
    form.querySelectorAll('input[name="paymentMethod"]').forEach(function (radio) {
      radio.addEventListener("change", function () { followMethod(form); });
    });
    followMethod(form);
    setupQuote(form);
    form.addEventListener("submit", function (event) {
      clearErrors(form);
      button.disabled = true;
      button.textContent = text("paying");
      if (chosenMethod(form) !== "creditcard") return;
      event.preventDefault();
      tokenize(form, button);
    });
    var alert = document.getElementById("form-alert");
    if (alert && !alert.hidden) alert.focus();
  }

  setupCopy();
  setupPolling();
  setupRedirect();
  setupForm();
})();

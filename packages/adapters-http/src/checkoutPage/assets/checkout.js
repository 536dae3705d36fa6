// The hosted checkout page's one script: what the page cannot do without it.
// The card goes only to the tokenization route, never into the form; the
// form's fields follow the chosen method; a charge's status is polled until
// it is paid; codes get a copy button. The page works without it for Pix and
// boleto. No framework, no third party, nothing inline (the CSP forbids it).
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

  function setupPolling() {
    var region = document.querySelector("[data-poll]");
    if (!region) return;
    var url = region.getAttribute("data-poll");
    var every = Number(region.getAttribute("data-poll-every")) || 2000;
    var timer = setInterval(function () {
      fetch(url, { headers: { accept: "application/json" }, cache: "no-store" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (!answer) return;
          if (PAID.indexOf(answer.status) >= 0) { clearInterval(timer); showPaid(region); }
          else if (CLOSED.indexOf(answer.status) >= 0) { clearInterval(timer); location.reload(); }
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

  function setupForm() {
    var form = document.querySelector("form.checkout");
    if (!form) return;
    var button = form.querySelector("button.pay");
    form.querySelectorAll('input[name="paymentMethod"]').forEach(function (radio) {
      radio.addEventListener("change", function () { followMethod(form); });
    });
    followMethod(form);
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
  setupForm();
})();

// The playtest page: answers, undo and load go to the server, which sends the game back drawn.
"use strict";

const game = document.getElementById("game");
const error = document.getElementById("error");
const undo = document.getElementById("undo");

function say(message) {
  error.textContent = message;
  error.hidden = !message;
}

function show(data) {
  game.innerHTML = data.html;
  say("");
  settle();
}

function settle() {
  const layout = game.querySelector(".layout");
  undo.disabled = !(layout && layout.dataset.undo);
  const log = document.getElementById("log");
  if (log) log.scrollTop = log.scrollHeight;
}

async function send(url, body) {
  let response;
  try {
    response = await fetch(url, { method: "POST", body: body, headers: { "Content-Type": "application/json" } });
  } catch (err) {
    say("The server cannot be reached: is `meeple serve` still running?");
    return;
  }
  const data = await response.json();
  if (!response.ok) {
    say(data.error);
    return;
  }
  show(data);
}

function answer(index) {
  const layout = game.querySelector(".layout");
  send("/api/answer", JSON.stringify({
    step: Number(layout.dataset.step),
    seat: Number(layout.dataset.seat),
    index: Number(index),
  }));
}

function choosePlace(place) {
  const indices = place.dataset.options.split(",");
  if (indices.length === 1) {
    answer(indices[0]);
    return;
  }
  // Several options are this place (several pieces on it): the buttons say which.
  game.querySelectorAll(".option").forEach((button) => {
    button.classList.toggle("picked", indices.includes(button.dataset.index));
  });
}

game.addEventListener("click", (event) => {
  const button = event.target.closest(".option");
  if (button) {
    answer(button.dataset.index);
    return;
  }
  const place = event.target.closest(".choosable");
  if (place) choosePlace(place);
});

game.addEventListener("keydown", (event) => {
  const place = event.target.closest(".choosable");
  if (place && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    choosePlace(place);
  }
});

game.addEventListener("mouseover", (event) => {
  const button = event.target.closest(".option[data-place]");
  game.querySelectorAll(".choosable.lit").forEach((p) => p.classList.remove("lit"));
  if (!button) return;
  game.querySelectorAll(".choosable").forEach((p) => {
    if (p.dataset.options.split(",").includes(button.dataset.index)) p.classList.add("lit");
  });
});

undo.addEventListener("click", () => send("/api/undo", "{}"));

document.getElementById("load").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  event.target.value = "";
  if (file) send("/api/load", await file.text());
});

settle();

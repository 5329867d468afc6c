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
  spot = null;
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

// A shape to lay: the place under the pointer (or the last one pointed at) shows it as a ghost,
// turned as the player last chose where that turn is legal there, else as the first legal turn.
let spot = null;
let wanted = null;

function ghosts(place) {
  return JSON.parse(place.dataset.ghosts);  // [[option, turn in degrees, [[corners, colour], ...]], ...]
}

function picked(place) {
  const all = ghosts(place);
  return all.find((g) => g[1] === wanted) || all[0];
}

function showGhost(place) {
  game.querySelectorAll(".ghost").forEach((g) => g.replaceChildren());
  spot = place;
  const [, turn, cells] = picked(place);
  const layer = place.closest("svg").querySelector(".ghost");
  for (const [corners, colour] of cells) {
    const cell = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    cell.setAttribute("points", corners);
    cell.setAttribute("fill", colour);
    cell.setAttribute("class", "ghost-cell");
    layer.appendChild(cell);
  }
  const control = game.querySelector(".turns");
  if (!control) return;
  const buttons = control.querySelector(".turn-buttons");
  buttons.replaceChildren();
  for (const [, legal] of ghosts(place)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "turn" + (legal === turn ? " on" : "");
    button.dataset.turn = legal;
    button.textContent = legal + "\u00b0";
    buttons.appendChild(button);
  }
  control.hidden = false;
}

function turnNext() {
  if (!spot) return;
  const turns = ghosts(spot).map((g) => g[1]);
  wanted = turns[(turns.indexOf(picked(spot)[1]) + 1) % turns.length];
  showGhost(spot);
}

function choosePlace(place) {
  if (place.classList.contains("lay")) {
    answer(picked(place)[0]);
    return;
  }
  const indices = place.dataset.options.split(",");
  if (indices.length === 1) {
    answer(indices[0]);
    return;
  }
  // Several options are this place (several pieces on it): the listed buttons say which.
  const listed = game.querySelector("details.listed");
  if (listed) listed.open = true;
  game.querySelectorAll(".option").forEach((button) => {
    button.classList.toggle("picked", indices.includes(button.dataset.index));
  });
}

game.addEventListener("click", (event) => {
  const back = event.target.closest(".back-to");
  if (back) {
    send("/api/history", JSON.stringify({ at: Number(back.dataset.at) }));
    return;
  }
  const agent = event.target.closest(".let-agent");
  if (agent) {
    const helper = document.getElementById("helper");
    send("/api/agent", JSON.stringify({ agent: helper.value, to_end: Boolean(agent.dataset.toEnd) }));
    return;
  }
  const ready = event.target.closest("#ready");
  if (ready) {
    send("/api/ready", JSON.stringify({ seat: Number(ready.dataset.seat) }));
    return;
  }
  const turn = event.target.closest(".turn");
  if (turn) {
    wanted = Number(turn.dataset.turn);
    if (spot) showGhost(spot);
    return;
  }
  const button = event.target.closest(".option");
  if (button) {
    answer(button.dataset.index);
    return;
  }
  const place = event.target.closest(".choosable");
  if (place) choosePlace(place);
});

game.addEventListener("change", (event) => {
  const seat = event.target.closest(".seat-agent");
  if (seat) send("/api/seat", JSON.stringify({ seat: Number(seat.dataset.seat), agent: seat.value }));
});

game.addEventListener("focusin", (event) => {
  const place = event.target.closest(".lay");
  if (place) showGhost(place);
});

document.addEventListener("keydown", (event) => {
  if ((event.key === "r" || event.key === "R") && spot && spot.isConnected) turnNext();
});

game.addEventListener("keydown", (event) => {
  const place = event.target.closest(".choosable");
  if (place && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    choosePlace(place);
  }
});

game.addEventListener("mouseover", (event) => {
  const lay = event.target.closest(".lay");
  if (lay && lay !== spot) showGhost(lay);
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

/**
 * A small conversation in LoCoMo's format, written for the project's tests (not taken from any data
 * set): two conversations of invented people, their questions and `observation` facts, holding none
 * of the dev conversations. The bench parser's unit tests read it, and CI runs the quality benchmark
 * on it (`npm run bench:quality -- --locomo <the written file> --quick`), so the benchmark is proven
 * to run on a file without the dev data, and `npm test` needs no ../shared. Benchmark data itself
 * lives in ../shared/bench.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const LOCOMO_SAMPLE = [
  {
    sample_id: "conv-x1",
    conversation: {
      speaker_a: "Priya",
      speaker_b: "Tom",
      session_1_date_time: "10:15 am on 3 March, 2022",
      session_1: [
        {
          speaker: "Priya",
          dia_id: "D1:1",
          text: "Hi Tom! How was your weekend?",
        },
        {
          speaker: "Tom",
          dia_id: "D1:2",
          text: "Hey Priya! I finally finished restoring the old sailboat with my dad.",
        },
        {
          speaker: "Priya",
          dia_id: "D1:3",
          text: "That's amazing! I started a beekeeping course at the community garden last month.",
        },
        {
          speaker: "Tom",
          dia_id: "D1:4",
          text: "Beekeeping sounds calm. Do you get honey already?",
        },
        {
          speaker: "Priya",
          dia_id: "D1:5",
          text: "Not yet, the first harvest is in July. I named the queen bee Marigold.",
          blip_caption: "a photo of a wooden beehive in a garden",
        },
        {
          speaker: "Tom",
          dia_id: "D1:6",
          text: "Ha, Marigold! We plan to sail the boat to Lake Harmon in the summer.",
        },
      ],
      session_2_date_time: "6:40 pm on 19 April, 2022",
      session_2: [
        {
          speaker: "Tom",
          dia_id: "D2:1",
          text: "Priya, the sailboat leaked on its first trip, so I am fixing the hull again.",
        },
        {
          speaker: "Priya",
          dia_id: "D2:2",
          text: "Oh no! I hope it is an easy fix. My bees survived the cold week in April.",
        },
        {
          speaker: "Tom",
          dia_id: "D2:3",
          text: "Glad to hear it. My dad says the hull needs new cedar planks.",
        },
        {
          speaker: "Priya",
          dia_id: "D2:4",
          text: "I am also learning to make candles from the beeswax.",
        },
        {
          speaker: "Tom",
          dia_id: "D2:5",
          text: "Candles from beeswax sound like a great gift for my sister's wedding.",
        },
        {
          speaker: "Priya",
          dia_id: "D2:6",
          text: "I can make a box of them for her wedding in June!",
        },
      ],
      session_3_date_time: "2:05 pm on 12 July, 2022",
      session_3: [
        {
          speaker: "Priya",
          dia_id: "D3:1",
          text: "The first honey harvest gave us twelve jars!",
        },
        {
          speaker: "Tom",
          dia_id: "D3:2",
          text: "Twelve jars! We sailed to Lake Harmon last weekend and the hull held.",
        },
        {
          speaker: "Priya",
          dia_id: "D3:3",
          text: "Congrats, all that work on the cedar planks paid off.",
        },
        {
          speaker: "Tom",
          dia_id: "D3:4",
          text: "Next I want to teach my nephew to sail.",
        },
      ],
    },
    qa: [
      {
        question: "What did Priya name the queen bee?",
        answer: "Marigold",
        evidence: ["D1:5"],
        category: 4,
      },
      {
        question: "Where did Tom sail the boat?",
        answer: "Lake Harmon",
        evidence: ["D1:6", "D3:2"],
        category: 1,
      },
      {
        question: "When was the first honey harvest?",
        answer: "July 2022",
        evidence: ["D3:1"],
        category: 2,
      },
      {
        question: "What does the hull need?",
        answer: "new cedar planks",
        evidence: ["D2:3"],
        category: 4,
      },
      {
        question: "What did Tom's sister get as a wedding gift?",
        answer: "beeswax candles",
        evidence: ["D2:5", "D2:6"],
        category: 3,
      },
      {
        question: "What did Priya knit?",
        adversarial_answer: "a scarf",
        evidence: ["D2:4"],
        category: 5,
      },
    ],
    observation: {
      session_1_observation: {
        Priya: [
          ["Priya started a beekeeping course at the community garden.", "D1:3"],
          ["Priya named her queen bee Marigold.", "D1:5"],
        ],
        Tom: [
          ["Tom restored an old sailboat with his dad.", "D1:2"],
          ["Tom plans to sail to Lake Harmon in the summer.", "D1:6"],
        ],
      },
      session_2_observation: {
        Tom: [
          ["Tom is fixing the sailboat's hull with new cedar planks.", ["D2:1", "D2:3"]],
          ["Tom's sister is getting married.", "D2:5"],
        ],
        Priya: [["Priya is learning to make candles from beeswax.", "D2:4"]],
      },
      session_3_observation: {
        Priya: [["Priya's first honey harvest gave twelve jars.", "D3:1"]],
        Tom: [["Tom wants to teach his nephew to sail.", "D3:4"]],
      },
    },
    event_summary: {},
    session_summary: {},
  },
  {
    sample_id: "conv-x2",
    conversation: {
      speaker_a: "Lena",
      speaker_b: "Omar",
      session_1_date_time: "9:00 am on 5 May, 2023",
      session_1: [
        {
          speaker: "Lena",
          dia_id: "D1:1",
          text: "I moved to Porto for a job at a robotics startup.",
        },
        {
          speaker: "Omar",
          dia_id: "D1:2",
          text: "Congrats Lena! I am training for the Lisbon half marathon in October.",
        },
        {
          speaker: "Lena",
          dia_id: "D1:3",
          text: "Our team builds arms that sort recycling.",
        },
        {
          speaker: "Omar",
          dia_id: "D1:4",
          text: "I run along the river every morning before work at the bakery.",
        },
      ],
      session_2_date_time: "8:30 pm on 1 June, 2023",
      session_2: [
        {
          speaker: "Lena",
          dia_id: "D2:1",
          text: "My robot arm sorted a thousand bottles in its first test.",
        },
        {
          speaker: "Omar",
          dia_id: "D2:2",
          text: "I ran twenty kilometres on Sunday without stopping.",
        },
        {
          speaker: "Lena",
          dia_id: "D2:3",
          text: "I adopted a grey cat called Pixel from the shelter.",
        },
        {
          speaker: "Omar",
          dia_id: "D2:4",
          text: "Pixel is a perfect name for a robotics engineer's cat.",
        },
      ],
    },
    qa: [
      {
        question: "Where does Lena work?",
        answer: "a robotics startup in Porto",
        evidence: ["D1:1"],
        category: 4,
      },
      {
        question: "What is Omar training for?",
        answer: "the Lisbon half marathon",
        evidence: ["D1:2"],
        category: 4,
      },
      {
        question: "What is the cat called?",
        answer: "Pixel",
        evidence: ["D2:3"],
        category: 4,
      },
    ],
    observation: {
      session_1_observation: {
        Lena: [["Lena moved to Porto to work at a robotics startup.", "D1:1"]],
        Omar: [
          ["Omar is training for the Lisbon half marathon.", "D1:2"],
          ["Omar works at a bakery.", "D1:4"],
        ],
      },
      session_2_observation: {
        Lena: [["Lena adopted a grey cat named Pixel.", "D2:3"]],
        Omar: [["Omar ran twenty kilometres without stopping.", "D2:2"]],
      },
    },
    event_summary: {},
    session_summary: {},
  },
];

/** Writes the sample to a fresh temporary file in LoCoMo's JSON layout; answers its path. */
export function writeLocomoSample(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "locomo-sample-")), "locomo-sample.json");
  writeFileSync(file, JSON.stringify(LOCOMO_SAMPLE));
  return file;
}

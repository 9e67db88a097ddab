#!/usr/bin/python3
"""Trains the learned reranker of one mode (fast or thorough: their lanes differ) in
engine/retrieve/reranker-model.json from collect-features.ts output, keeping the other mode's model.

A maintainer's tool, not part of the build or the tests: it needs XGBoost (Debian: apt-get install
python3-xgboost; run it with /usr/bin/python3). First it reports leave-one-conversation-out frac@10
(each conversation ranked by a model trained on the others) against the fusion's own order, then it
trains on everything and writes the model in the engine's format (engine/retrieve/gbdt.ts).

FEATURES may name several files, comma-separated, each as PATH or PATH:WEIGHT (the weight of its rows in
training, default 1): the same questions collected with the turns stored in different forms
(collect-features.ts, TURNS_AS=messages|documents). One model learns them all; the cross-validation holds
a conversation out in every form at once and reports each form on its own. The shipped models:

  /usr/bin/python3 scripts/reranker/train.py fast /tmp/fast.csv,/tmp/fast-docs.csv:0.5 engine/retrieve/reranker-model.json
"""
import csv
import json
import sys

import numpy as np
import xgboost as xgb

# Chosen by leave-one-conversation-out frac@10 on the LoCoMo dev half (docs/decisions/retrieval.md).
PARAMS = dict(objective='binary:logistic', eta=0.05, max_depth=3, min_child_weight=5, subsample=0.8,
              colsample_bytree=0.8, seed=1, nthread=2)
ROUNDS = 400
# A better rank in any lane, and a stronger lexical or cosine match, may only ever help a candidate. Free
# to learn otherwise from a few hundred questions, a model learns noise; with the constraints it scores
# the same in leave-one-conversation-out (0.8049 against 0.8045 without; constraining the fusion's own
# rank and score too cost 0.007).
INCREASING = {'lexnorm', 'cos'}


def monotone(feats):
    return '(' + ','.join('1' if f in INCREASING or f.startswith('r_') else '0' for f in feats) + ')'
MODEL_ID = 'gbdt-rerank-locomo-dev-v3'
# What collect-features.ts ran with: the depth (RERANK_DEPTH) and the embedder whose cosines it saw.
DEPTH = 150
EMBEDDER = 'glove-sif'


def load(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    feats = head[5:]
    qid = np.array([int(r[0]) for r in body])
    conv = np.array([r[1] for r in body])
    cat = {int(r[0]): int(r[2]) for r in body}
    nev = {int(r[0]): int(r[3]) for r in body}
    y = np.array([int(r[4]) for r in body])
    x = np.array([[float(v) for v in r[5:]] for r in body], dtype=np.float32)
    return feats, qid, conv, cat, nev, y, x


def frac_at_10(mask, scores, qid, y, nev):
    """Mean over questions of the share of evidence turns in the 10 best by score (evidence beyond the
    reranked candidates counts as missed, as it is)."""
    vals = []
    for q in np.unique(qid[mask]):
        m = mask & (qid == q)
        order = np.argsort(-scores[m], kind='stable')[:10]
        vals.append(y[m][order].sum() / nev[q])
    return float(np.mean(vals)), len(vals)


def train(x, y, weight, mask, feats):
    params = dict(PARAMS, monotone_constraints=monotone(feats))
    return xgb.train(params, xgb.DMatrix(x[mask], label=y[mask], weight=weight[mask]), ROUNDS)


def base_margin(bst):
    """The margin every prediction starts from: logit(base_score) for binary:logistic (0 with XGBoost
    1.x's fixed 0.5; XGBoost 2 estimates base_score from the labels)."""
    p = float(json.loads(bst.save_config())['learner']['learner_model_param']['base_score'])
    return float(np.log(p / (1 - p)))


def to_engine(bst, feats):
    trees = []
    for text in bst.get_dump(dump_format='json'):
        root = json.loads(text)
        nodes = []

        def walk(n):
            i = len(nodes)
            if 'leaf' in n:
                nodes.append({'leaf': n['leaf']})
                return i
            nodes.append(None)
            kids = {c['nodeid']: c for c in n['children']}
            yes = walk(kids[n['yes']])
            no = walk(kids[n['no']])
            nodes[i] = {'feature': int(n['split'][1:]), 'threshold': float(np.float32(n['split_condition'])),
                        'yes': yes, 'no': no}
            return i

        walk(root)
        trees.append(nodes)
    return {'format': 'mnemo-gbdt/1', 'features': feats, 'base_margin': base_margin(bst), 'trees': trees}


def load_all(srcs):
    """Several feature files (PATH or PATH:WEIGHT) as one set: question ids made distinct per file, each
    row's file and training weight kept."""
    paths = [s.rsplit(':', 1)[0] if ':' in s else s for s in srcs]
    weights = [float(s.rsplit(':', 1)[1]) if ':' in s else 1.0 for s in srcs]
    parts = [load(p) for p in paths]
    feats = parts[0][0]
    if any(p[0] != feats for p in parts):
        sys.exit('feature files disagree on the features')
    offset = [i * 1_000_000 for i in range(len(parts))]
    if any(p[1].max() >= 1_000_000 for p in parts):
        sys.exit('a feature file has a question id of 1,000,000 or more; the ids of several files would clash')
    qid = np.concatenate([p[1] + o for p, o in zip(parts, offset)])
    nev = {q + o: n for p, o in zip(parts, offset) for q, n in p[4].items()}
    form = np.concatenate([np.full(len(p[5]), i) for i, p in enumerate(parts)])
    weight = np.concatenate([np.full(len(p[5]), w, dtype=np.float32) for p, w in zip(parts, weights)])
    conv, y, x = (np.concatenate([p[k] for p in parts]) for k in (2, 5, 6))
    return feats, qid, conv, nev, y, x, form, weight


def main(mode, src, dst):
    if mode not in ('fast', 'thorough'):
        sys.exit('usage: train.py fast|thorough FEATURES.csv[,FEATURES.csv...] MODEL.json')
    srcs = src.split(',')
    feats, qid, conv, nev, y, x, form, weight = load_all(srcs)
    fused_order = -x[:, feats.index('frank')]
    totals = {f: [0.0, 0.0, 0] for f in range(len(srcs))}
    for c in sorted(set(conv)):
        test = conv == c
        pred = np.zeros(len(y))
        pred[test] = train(x, y, weight, ~test, feats).predict(xgb.DMatrix(x[test]), output_margin=True)
        for f, t in totals.items():
            b, n = frac_at_10(test & (form == f), fused_order, qid, y, nev)
            r, _ = frac_at_10(test & (form == f), pred, qid, y, nev)
            print(f'{c} ({srcs[f]}): {n} questions, frac@10 fusion {b:.4f}, reranked (trained on the others) {r:.4f}')
            t[0] += b * n
            t[1] += r * n
            t[2] += n
    for f, (b, r, n) in totals.items():
        print(f'all ({srcs[f]}): frac@10 fusion {b / n:.4f}, reranked leave-one-conversation-out {r / n:.4f}')
    bst = train(x, y, weight, np.ones(len(y), dtype=bool), feats)
    # Checks the export: the engine's tree walk (replayed here) must give XGBoost's own margins.
    model = to_engine(bst, feats)
    rows = np.random.default_rng(1).choice(len(y), size=min(5000, len(y)), replace=False)
    margins = bst.predict(xgb.DMatrix(x[rows]), output_margin=True)
    for row, want in zip(x[rows], margins):
        got = model['base_margin']
        for tree in model['trees']:
            i = 0
            while 'leaf' not in tree[i]:
                n = tree[i]
                i = n['yes'] if np.float32(row[n['feature']]) < np.float32(n['threshold']) else n['no']
            got += tree[i]['leaf']
        if abs(got - want) > 1e-4:
            sys.exit(f'export check failed: {got} != {want}')
    try:
        with open(dst) as f:
            out = json.load(f)
    except FileNotFoundError:
        out = {'id': MODEL_ID, 'models': {}, 'checks': []}
    out.update(id=MODEL_ID, depth=DEPTH, embedder=EMBEDDER)
    out['models'][mode] = model
    # A few rows with XGBoost's margins, for the engine's tests to replay (engine/retrieve/reranker.test.ts).
    out['checks'] = [c for c in out.get('checks', []) if c['mode'] != mode] + [
        {'mode': mode, 'x': [float(v) for v in x[r]], 'margin': float(m)} for r, m in zip(rows[:8], margins[:8])]
    with open(dst, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'wrote the {mode} model into {dst}: {len(model["trees"])} trees')


if __name__ == '__main__':
    main(*sys.argv[1:4])

"""Tic-tac-toe written the way the CS50 AI course asks a learner to write
it: the board a list of lists of "X", "O" and None (EMPTY), `player`
returning "X" or "O", `actions` returning a *set* of (i, j) pairs, and
`result` raising on an illegal action. A module, not a class: ply takes
either. Written here from the course's specification, as a learner would.
"""

import copy

X = "X"
O = "O"
EMPTY = None


def initial_state():
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    xs = sum(row.count(X) for row in board)
    os = sum(row.count(O) for row in board)
    return X if xs <= os else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError("not a legal action")
    new = copy.deepcopy(board)
    new[i][j] = player(board)
    return new


def winner(board):
    lines = [[(i, j) for j in range(3)] for i in range(3)]
    lines += [[(i, j) for i in range(3)] for j in range(3)]
    lines += [[(k, k) for k in range(3)], [(k, 2 - k) for k in range(3)]]
    for line in lines:
        cells = [board[i][j] for i, j in line]
        if cells[0] is not EMPTY and cells.count(cells[0]) == 3:
            return cells[0]
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    return {X: 1, O: -1, None: 0}[winner(board)]

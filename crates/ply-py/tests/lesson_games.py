"""The lesson's games, written as a learner writes them: plain functions
over plain Python values. ply searches them through these functions alone."""

import copy


class TicTacToe:
    """The board a list of three rows of "X", "O" or None; X moves first."""

    LINES = [[(r, c) for c in range(3)] for r in range(3)] + \
            [[(r, c) for r in range(3)] for c in range(3)] + \
            [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]

    def initial_state(self):
        return [[None] * 3 for _ in range(3)]

    def player(self, state):
        filled = sum(cell is not None for row in state for cell in row)
        return "X" if filled % 2 == 0 else "O"

    def actions(self, state):
        # Squares numbered 0-8 row by row, as ply's own tic-tac-toe.
        return [3 * r + c for r in range(3) for c in range(3) if state[r][c] is None]

    def result(self, state, action):
        board = copy.deepcopy(state)
        board[action // 3][action % 3] = self.player(state)
        return board

    def winner(self, state):
        for line in self.LINES:
            marks = {state[r][c] for r, c in line}
            if len(marks) == 1 and None not in marks:
                return marks.pop()
        return None

    def terminal(self, state):
        return self.winner(state) is not None or all(cell is not None for row in state for cell in row)

    def utility(self, state):
        return {"X": 1, "O": -1, None: 0}[self.winner(state)]

    def key(self, state):
        return tuple(cell for row in state for cell in row)


def board(text):
    """A board from ply's notation: XO.X..O.. row by row."""
    return [[None if ch == "." else ch for ch in text[r * 3:r * 3 + 3]] for r in range(3)]


# The coins game as a module of functions: take 1 or 2, the last coin wins.
# A state is (coins left, whose turn).
def initial_state():
    return (4, "MAX")


def player(state):
    return state[1]


def actions(state):
    return [k for k in (1, 2) if k <= state[0]]


def result(state, action):
    return (state[0] - action, "MIN" if state[1] == "MAX" else "MAX")


def terminal(state):
    return state[0] == 0


def utility(state):
    # The player who took the last coin won: the one not to move now.
    return -1 if state[1] == "MAX" else 1

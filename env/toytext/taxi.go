package toytext

import (
	"fmt"

	"github.com/temple-rl/temple/mdp"
)

// Taxi actions, in Gymnasium's order (taxi.py: 0 south, 1 north, 2 east, 3 west, 4 pickup,
// 5 drop-off). South moves to a larger row: row 0 is the top of the map.
const (
	South = iota
	North
	East
	West
	Pickup
	Dropoff
)

// Sizes of the taxi domain: a 5x5 grid, 5 passenger locations (the 4 landmarks and in the taxi),
// 4 destinations, so 25*5*4 = 500 states, and 6 actions.
const (
	TaxiRows    = 5
	TaxiCols    = 5
	TaxiStates  = TaxiRows * TaxiCols * 5 * 4
	TaxiActions = 6
	// InTaxi is the passenger location of a passenger riding in the taxi.
	InTaxi = 4
)

// taxiStarts is the number of start states: 25 taxi cells, 4 passenger landmarks, 3 destinations
// other than the passenger's landmark.
const taxiStarts = TaxiRows * TaxiCols * 4 * 3

// TaxiActionNames are the names of the Taxi actions in table order.
var TaxiActionNames = [TaxiActions]string{"south", "north", "east", "west", "pickup", "dropoff"}

// TaxiMap is the map of taxi.py (MAP; Dietterich 2000, Figure 1). Cell (row, col) is the letter at
// TaxiMap[1+row][1+2*col]; the character to its right, TaxiMap[1+row][2+2*col], is ':' where the
// taxi may pass east to (row, col+1) and '|' where a wall stands. There are no walls between rows.
var TaxiMap = [7]string{
	"+---------+",
	"|R: | : :G|",
	"| : | : : |",
	"| : : : : |",
	"| | : | : |",
	"|Y| : |B: |",
	"+---------+",
}

// TaxiLandmarks are the cells (row, col) of the four pick-up and drop-off locations, indexed by
// passenger location and destination: 0 red (0,0), 1 green (0,4), 2 yellow (4,0), 3 blue (4,3)
// (taxi.py, locs).
var TaxiLandmarks = [4][2]int{{0, 0}, {0, 4}, {4, 0}, {4, 3}}

// TaxiLandmarkNames are the letters of the landmarks on TaxiMap, in index order.
var TaxiLandmarkNames = [4]string{"R", "G", "Y", "B"}

// TaxiState is a decoded Taxi state: the taxi's cell, the passenger's location (a landmark index
// 0–3, or InTaxi) and the destination (a landmark index 0–3).
type TaxiState struct {
	Row, Col int
	Pass     int
	Dest     int
}

// EncodeTaxi is the state index of s, ((Row*5 + Col)*5 + Pass)*4 + Dest, as taxi.py's encode.
// Errors name the field out of range.
func EncodeTaxi(s TaxiState) (int, error) {
	switch {
	case s.Row < 0 || s.Row >= TaxiRows:
		return 0, fmt.Errorf("taxi: row %d, want 0 to %d", s.Row, TaxiRows-1)
	case s.Col < 0 || s.Col >= TaxiCols:
		return 0, fmt.Errorf("taxi: column %d, want 0 to %d", s.Col, TaxiCols-1)
	case s.Pass < 0 || s.Pass > InTaxi:
		return 0, fmt.Errorf("taxi: passenger location %d, want 0 to 3 (a landmark) or %d (in the taxi)", s.Pass, InTaxi)
	case s.Dest < 0 || s.Dest >= len(TaxiLandmarks):
		return 0, fmt.Errorf("taxi: destination %d, want 0 to %d", s.Dest, len(TaxiLandmarks)-1)
	}
	return s.index(), nil
}

// index is EncodeTaxi for a state known to be in range.
func (s TaxiState) index() int { return ((s.Row*TaxiCols+s.Col)*5+s.Pass)*4 + s.Dest }

// DecodeTaxi is the state of index i, as taxi.py's decode.
func DecodeTaxi(i int) (TaxiState, error) {
	if i < 0 || i >= TaxiStates {
		return TaxiState{}, fmt.Errorf("taxi: state %d, want 0 to %d", i, TaxiStates-1)
	}
	return decodeTaxi(i), nil
}

func decodeTaxi(i int) TaxiState {
	return TaxiState{Row: i / 100, Col: i / 20 % 5, Pass: i / 4 % 5, Dest: i % 4}
}

// String names the state, e.g. "taxi (3,1), passenger at Y, destination R".
func (s TaxiState) String() string {
	return fmt.Sprintf("taxi (%d,%d), passenger %s, destination %s", s.Row, s.Col, passengerName(s.Pass), landmarkName(s.Dest))
}

// landmarkName is the letter of landmark i, or the number itself when it is out of range.
func landmarkName(i int) string {
	if i >= 0 && i < len(TaxiLandmarkNames) {
		return TaxiLandmarkNames[i]
	}
	return fmt.Sprint(i)
}

// passengerName describes passenger location pass: "in taxi" or "at" a landmark.
func passengerName(pass int) string {
	if pass == InTaxi {
		return "in taxi"
	}
	return "at " + landmarkName(pass)
}

// Terminal reports whether s is a terminal state of the model: the passenger is at the
// destination. See Taxi.
func (s TaxiState) Terminal() bool { return s.Pass == s.Dest }

// landmark is the index of the landmark at (row, col), or −1 when there is none.
func landmark(row, col int) int {
	for i, l := range TaxiLandmarks {
		if l == [2]int{row, col} {
			return i
		}
	}
	return -1
}

// taxiStep is the one outcome of action a in a non-terminal state s (taxi.py, the P table without
// is_rainy and fickle_passenger): the next state and the reward.
func taxiStep(s TaxiState, a int) (TaxiState, float64) {
	next, reward := s, -1.0
	switch a {
	case South:
		next.Row = min(s.Row+1, TaxiRows-1)
	case North:
		next.Row = max(s.Row-1, 0)
	case East:
		if TaxiMap[1+s.Row][2+2*s.Col] == ':' {
			next.Col++
		}
	case West:
		if TaxiMap[1+s.Row][2*s.Col] == ':' {
			next.Col--
		}
	case Pickup:
		if s.Pass != InTaxi && landmark(s.Row, s.Col) == s.Pass {
			next.Pass = InTaxi
		} else {
			reward = -10
		}
	case Dropoff:
		at := landmark(s.Row, s.Col)
		switch {
		case s.Pass == InTaxi && at == s.Dest:
			next.Pass, reward = s.Dest, 20
		case s.Pass == InTaxi && at >= 0:
			next.Pass = at // set down at another landmark: a plain step
		default:
			reward = -10
		}
	}
	return next, reward
}

// Taxi builds the exact model of Gymnasium's Taxi-v3 (taxi.py, TaxiEnv with is_rainy and
// fickle_passenger off). S = 500, A = 6; state i is EncodeTaxi(TaxiState{row, col, pass, dest}).
// Every step is deterministic and pays −1, except: a pickup where the passenger is not waiting at
// the taxi's cell, or a drop-off without the passenger aboard or away from every landmark, pays
// −10 and changes nothing; a drop-off at the destination with the passenger aboard pays +20 and
// ends the episode. A drop-off with the passenger aboard at another landmark leaves the passenger
// there and pays −1. Moves into a wall or off the grid stay in place and pay −1.
//
// Terminal states are the 100 states whose passenger location equals the destination. Gymnasium
// flags "terminated" exactly on the successful drop-off, whose next state is one of these (the
// taxi at the destination, the passenger set down there); no other transition from a state whose
// passenger is elsewhere leads into one, since a pickup puts the passenger in the taxi and a drop-off
// elsewhere leaves it at another landmark. So for every non-terminal state the rows equal
// Gymnasium's P table, and a transition ends the episode exactly when Gymnasium's would. Of the
// terminal states only the 4 with the taxi at the destination can be reached; the other 96 are
// never entered, and Gymnasium's docs count them out too (404 reachable states).
//
// The start distribution is Gymnasium's: uniform over the 300 states with the passenger waiting
// at a landmark other than the destination (25 taxi cells × 4 × 3).
func Taxi() (*mdp.Model, error) {
	rows := make([][]mdp.Transition, TaxiStates*TaxiActions)
	start := make([]float64, TaxiStates)
	terminal := make([]bool, TaxiStates)
	for i := 0; i < TaxiStates; i++ {
		s := decodeTaxi(i)
		if s.Terminal() {
			terminal[i] = true // its rows stay empty: NewEpisodic makes it absorbing
			continue
		}
		if s.Pass != InTaxi {
			start[i] = 1.0 / taxiStarts
		}
		for a := 0; a < TaxiActions; a++ {
			next, reward := taxiStep(s, a)
			rows[i*TaxiActions+a] = []mdp.Transition{{Next: next.index(), Prob: 1, Reward: reward}}
		}
	}
	return mdp.NewEpisodic(TaxiStates, TaxiActions, rows, start, terminal)
}
